//===- GroundTruth.cpp - The emulator's ground truth, read back -----------===//

#include "GroundTruth.h"
#include "JsonFiles.h"
#include "warpscope/ABI/Files.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace warpscope;

namespace {

// lane_pairs and strides (docs/emulator.md, "Memory efficiency"), added to
// S; a malformed entry is skipped (the key is optional, files before it
// have none).
void readStride(const json::Object &IO, StrideCounts &S) {
  StrideCounts One;
  One.LanePairs = (uint64_t)IO.getInteger(LanePairsKey).value_or(0);
  if (const json::Array *A = IO.getArray(StridesKey))
    for (const json::Value &E : *A) {
      const json::Array *P = E.getAsArray();
      if (!P || P->size() != 2)
        continue;
      auto Bytes = (*P)[0].getAsInteger(), Pairs = (*P)[1].getAsInteger();
      if (Bytes && Pairs && *Pairs > 0)
        One.add(*Bytes, (uint64_t)*Pairs);
    }
  S += One;
}

// Adds one instruction's counts to T (summing over files).
void addInstruction(const json::Object &IO, TruthInstruction &T) {
  auto Count = [&](StringRef Key, uint64_t &Dst) {
    std::optional<int64_t> V = IO.getInteger(Key);
    if (V)
      Dst += (uint64_t)*V;
    return V.has_value();
  };
  T.Opcode = IO.getString("opcode").value_or("").str();
  T.Marker = IO.getString("marker").value_or("").str();
  T.File = IO.getString("file").value_or("").str();
  T.Line = (unsigned)IO.getInteger("line").value_or(0);
  Count("warp_executions", T.Warp);
  Count("thread_executions", T.Thread);
  Count("active_threads", T.Active);
  T.Instrumentation = IO.getBoolean("instrumentation").value_or(false);
  if (Count("visits", T.Visits)) {
    T.Conditional = true;
    Count("divergent", T.Divergent);
  }
  for (const MemoryCountField &F : MemoryCountFields)
    T.Memory |= Count(F.Key, T.Mem.*F.Member);
  readStride(IO, T.Stride);
}

// launches[]: kernel, grid, block, dynamic shared bytes, the shared memory
// touched and, when the timing model ran, modeled; interrupted, when a
// signal stopped it.
Error addLaunches(const json::Array &Ls, Truth &Out,
                  function_ref<Error(const Twine &)> Fail) {
  for (const json::Value &LV : Ls) {
    const json::Object *LO = LV.getAsObject();
    auto Kernel = LO ? LO->getString("kernel") : std::nullopt;
    if (!Kernel)
      return Fail("has a launch without a kernel");
    TruthLaunch L;
    L.Kernel = Kernel->str();
    for (auto [Key, Dst] : {std::pair{"grid", L.Grid}, {"block", L.Block}})
      if (const json::Array *A = LO->getArray(Key))
        for (size_t K = 0; K < 3 && K < A->size(); ++K)
          Dst[K] = (uint64_t)(*A)[K].getAsInteger().value_or(1);
    if (const json::Value *MV = LO->get("modeled")) {
      const json::Object *MO = MV->getAsObject();
      auto Config = MO ? MO->getString("config") : std::nullopt;
      auto Cycles = MO ? MO->getInteger("cycles") : std::nullopt;
      auto Us = MO ? MO->getNumber("microseconds") : std::nullopt;
      auto Sms = MO ? MO->getInteger("sms_simulated") : std::nullopt;
      auto Scaled = MO ? MO->getBoolean("scaled") : std::nullopt;
      if (!Config || !Cycles || !Us || !Sms || !Scaled || *Cycles < 0 ||
          *Us < 0 || *Sms < 0)
        return Fail("has a launch whose 'modeled' lacks config, cycles, "
                    "microseconds, sms_simulated or scaled");
      std::string Probes = MO->getString("probes").value_or("").str();
      if (!Probes.empty() && Probes != "free" && Probes != "modeled")
        return Fail("has a launch whose 'modeled.probes' is neither free nor "
                    "modeled");
      TruthModeled TM;
      TM.Config = Config->str();
      TM.Cycles = (uint64_t)*Cycles;
      TM.Microseconds = *Us;
      TM.SmsSimulated = (uint64_t)*Sms;
      TM.Scaled = *Scaled;
      TM.Probes = Probes;
      TM.Clock = MO->getString("clock").value_or("").str();
      TM.ClockMhz = MO->getNumber("clock_mhz").value_or(0);
      TM.LaunchCycles = MO->getInteger("launch_cycles").value_or(0);
      TM.Instructions = MO->getInteger("instructions").value_or(0);
      TM.Fingerprint = MO->getString("fingerprint").value_or("").str();
      L.Modeled = TM;
    }
    L.DynamicShared = (uint64_t)LO->getInteger("shared_bytes").value_or(0);
    if (const json::Value *TV = LO->get(SharedTouchedKey)) {
      const json::Object *TO = TV->getAsObject();
      auto Static = TO ? TO->getInteger("static") : std::nullopt;
      auto Dynamic = TO ? TO->getInteger("dynamic") : std::nullopt;
      if (!Static || !Dynamic || *Static < 0 || *Dynamic < 0)
        return Fail(Twine("has a launch whose '") + SharedTouchedKey +
                    "' is not {\"static\": n, \"dynamic\": n}");
      L.Touched = SharedTouched{(uint64_t)*Static, (uint64_t)*Dynamic};
    }
    if (const json::Object *IO = LO->getObject("interrupted")) {
      L.Interrupted = true;
      L.BlocksStopped = IO->getInteger("blocks_stopped").value_or(0);
    }
    Out.Launches.push_back(std::move(L));
  }
  return Error::success();
}

Error loadFile(const std::string &Path, Truth &Out) {
  auto Fail = [&](const Twine &What) {
    return createStringError(Path + ": " + What +
                             "; rerun under `warpscope run --emulate`");
  };
  Expected<json::Object> Top = readSchemaObject(Path, schema::Truth, Fail);
  if (!Top)
    return Top.takeError();
  const json::Array *Fns = Top->getArray("functions");
  if (!Fns)
    return Fail("has no 'functions' array");
  for (const json::Value &FV : *Fns) {
    const json::Object *FO = FV.getAsObject();
    const json::Array *Insts = FO ? FO->getArray("instructions") : nullptr;
    auto FName = FO ? FO->getString("name") : std::nullopt;
    if (!Insts || !FName)
      return Fail("has a malformed function entry");
    TruthFunction &F = Out.Functions[FName->str()];
    F.Kernel = FO->getBoolean("kernel").value_or(false);
    std::vector<TruthInstruction> &Dst = F.Insts;
    if (!Dst.empty() && Dst.size() != Insts->size())
      return Fail("function " + *FName +
                  " differs from the other ground-truth files");
    Dst.resize(Insts->size());
    for (size_t K = 0; K < Insts->size(); ++K) {
      const json::Object *IO = (*Insts)[K].getAsObject();
      if (!IO)
        return Fail("has a malformed instruction");
      addInstruction(*IO, Dst[K]);
    }
  }
  if (const json::Array *Ls = Top->getArray("launches"))
    return addLaunches(*Ls, Out, Fail);
  return Error::success();
}

} // namespace

StringRef warpscope::memoryAccessKind(StringRef Opcode) {
  if (Opcode.starts_with("st."))
    return "store";
  if (Opcode.starts_with("atom.") || Opcode.starts_with("red."))
    return "atomic";
  return "load";
}

std::optional<double> warpscope::regularStride(const StrideCounts &S,
                                               int64_t &Bytes) {
  uint64_t Pairs = 0;
  if (!S.LanePairs || !S.dominant(Bytes, Pairs) || 2 * Pairs < S.LanePairs)
    return std::nullopt;
  return double(Pairs) / double(S.LanePairs);
}

std::string warpscope::describeStride(const StrideCounts &S) {
  if (!S.LanePairs)
    return "";
  int64_t Bytes = 0;
  std::optional<double> Share = regularStride(S, Bytes);
  if (!Share)
    return "irregular stride (no stride holds for half of the lane pairs: "
           "a gather or scatter)";
  std::string Pct = formatv("{0:F0}% of lane pairs", *Share * 100).str();
  if (Bytes == 0)
    return "one address for neighbouring lanes (" + Pct + ")";
  return formatv("stride {0} B between neighbouring lanes ({1})", Bytes, Pct)
      .str();
}

Error warpscope::readTruth(const std::vector<std::string> &Paths, Truth &Out) {
  for (const std::string &P : Paths) {
    ++Out.Files;
    if (Error E = loadFile(P, Out))
      return E;
  }
  return Error::success();
}

Expected<uint64_t>
warpscope::countHazards(const std::vector<std::string> &Paths) {
  uint64_t N = 0;
  for (const std::string &Path : Paths) {
    auto Fail = [&](const Twine &What) {
      return createStringError(Path + ": " + What +
                               "; rerun under `warpscope run --racecheck`");
    };
    Expected<json::Object> Top = readSchemaObject(Path, schema::Truth, Fail);
    if (!Top)
      return Top.takeError();
    if (const json::Value *H = Top->get("hazards")) {
      const json::Array *A = H->getAsArray();
      if (!A)
        return Fail("has a 'hazards' that is not an array");
      N += A->size();
    }
  }
  return N;
}
