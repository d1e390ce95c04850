//===- AdviseInputs.cpp - Everything a profile directory offers advice ----===//

#include "AdviseInputs.h"
#include "MachineModel.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/ABI/PcSampling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace llvm;

namespace warpscope::advise {

std::vector<const TruthInstruction *> truthInstructions(const Function &F,
                                                        const Truth &T) {
  auto It = T.Functions.find(F.Name);
  if (It == T.Functions.end())
    return {};
  std::vector<const TruthInstruction *> Out;
  for (const TruthInstruction &I : It->second.Insts) {
    if (I.Instrumentation)
      continue;
    if (Out.size() >= F.Instrs.size() ||
        I.Opcode != F.Instrs[Out.size()].Opcode)
      return {};
    Out.push_back(&I);
  }
  return Out.size() == F.Instrs.size()
             ? Out
             : std::vector<const TruthInstruction *>();
}

std::vector<double> exactExecutions(const Function &F, const Truth &T) {
  std::vector<double> Out;
  for (const TruthInstruction *I : truthInstructions(F, T))
    Out.push_back(double(I->Warp));
  return Out;
}

bool blameFunction(const Function &F, const std::vector<const SampledPc *> &Pcs,
                   FunctionBlame &Out, std::string &Why,
                   const std::vector<double> *Executed) {
  std::vector<InstrStalls> Stalls(F.Instrs.size());
  for (const SampledPc *P : Pcs) {
    uint64_t Key = P->PtxIndex ? *P->PtxIndex : P->PcOffset;
    auto It = F.ByOffset.find(Key);
    if (It == F.ByOffset.end()) {
      Why = (P->PtxIndex ? "PTX instruction " : "pc offset ") +
            std::to_string(Key) + " of " + F.Name + " is not in its listing";
      return false;
    }
    const Instr &I = F.Instrs[It->second];
    // Modeled PTX samples carry their line: it must be the listing's.
    if (P->PtxIndex && P->Line && I.Line && P->Line != I.Line) {
      Why = "PTX instruction " + std::to_string(Key) + " of " + F.Name +
            " is at line " + std::to_string(I.Line) +
            " in the listing but line " + std::to_string(P->Line) +
            " in the samples";
      return false;
    }
    for (const auto &[Name, N] : P->Stalls)
      if (!isNotIssuedStall(Name))
        Stalls[It->second].add(Name, double(N));
  }
  Out = blame(F, std::move(Stalls), Executed);
  return true;
}

namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// Reads the listings the samples need into Code; false with a note when
/// one is missing or does not parse.
bool loadListings(RunDirectory &Run, LoadedInputs &L) {
  L.Code.Granularity = L.Samples->Granularity;
  if (L.Samples->Granularity == "ptx") {
    std::vector<std::string> Files = Run.files(files::Ptx);
    if (Files.empty()) {
      L.Notes.push_back("the PTX samples' listing (ptx-*.ptx) is missing; "
                        "rerun the timing model so it saves the PTX");
      return false;
    }
    for (const std::string &P : Files) {
      auto Buf = MemoryBuffer::getFile(P);
      std::vector<Function> Fns;
      std::string Why;
      if (!Buf || !parsePtxCode((*Buf)->getBuffer().str(), Fns, Why)) {
        L.Notes.push_back(P + ": " + (Buf ? Why : "cannot read") +
                          "; the PTX samples are not used");
        return false;
      }
      for (Function &F : Fns)
        L.Code.Functions[F.Name] = std::move(F);
    }
    return true;
  }
  std::set<std::string> Crcs;
  for (const SampledPc &P : L.Samples->Pcs)
    Crcs.insert(P.CubinCrc);
  for (const std::string &Crc : Crcs) {
    SmallString<256> Path(Run.path());
    sys::path::append(Path, files::SassListing.named(Crc));
    auto Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      L.Notes.push_back(std::string(Path) +
                        " is missing (nvdisasm was not on PATH during the "
                        "run); the PC samples are not used");
      return false;
    }
    std::vector<Function> Fns;
    std::string Why;
    if (!parseSassListing((*Buf)->getBuffer().str(), Fns, Why)) {
      L.Notes.push_back(std::string(Path) + ": " + Why +
                        "; the PC samples are not used");
      return false;
    }
    for (Function &F : Fns) {
      L.Code.CubinOf[F.Name] = Crc;
      L.Code.Functions[F.Name] = std::move(F);
    }
  }
  return true;
}

/// Blames every sampled function; false with a note when the samples are
/// of another build than the listings or the profile.
bool blameAll(LoadedInputs &L) {
  std::map<std::string, std::vector<const SampledPc *>> ByFn;
  for (const SampledPc &P : L.Samples->Pcs)
    ByFn[P.Function].push_back(&P);
  std::set<std::string> Profiled;
  if (L.Profile)
    for (const FunctionProfile &F : L.Profile->Functions)
      Profiled.insert(F.Name);
  for (const auto &[Name, Pcs] : ByFn) {
    if (!Profiled.empty() && !Profiled.count(Name)) {
      L.Notes.push_back("the PC samples name " + Name +
                        ", which the profile does not: they are of another "
                        "build; the PC samples are not used");
      return false;
    }
    const Function *F = L.Code.find(Name);
    auto Crc = L.Code.CubinOf.find(Name);
    if (!F || (L.Code.Granularity == "sass" &&
               (Crc == L.Code.CubinOf.end() ||
                Crc->second != Pcs.front()->CubinCrc))) {
      L.Notes.push_back("the PC samples name " + Name +
                        ", which their listing does not hold: they are of "
                        "another build; the PC samples are not used");
      return false;
    }
    // GPA's hybrid mode where the emulator counted the same PTX.
    std::vector<double> Exec;
    if (L.Code.Granularity == "ptx" && L.GroundTruth->Files)
      Exec = exactExecutions(*F, *L.GroundTruth);
    if (!Exec.empty())
      ++L.HybridFunctions;
    else if (L.Code.Granularity == "ptx" &&
             L.GroundTruth->Functions.count(Name))
      L.Notes.push_back("the ground truth's PTX of " + Name +
                        " differs from the listing's (another build); it is "
                        "blamed without exact executions");
    std::string Why;
    if (!blameFunction(*F, Pcs, L.Blame[Name], Why,
                       Exec.empty() ? nullptr : &Exec)) {
      L.Notes.push_back(Why + ": the samples are of another build; the PC "
                              "samples are not used");
      return false;
    }
    if (L.Samples->NotIssuedKnown) {
      // GPA's active samples: those in which the scheduler issued.
      double NotIssued = 0;
      for (const SampledPc *P : Pcs)
        for (const auto &[Stall, N] : P->Stalls)
          NotIssued += isNotIssuedStall(Stall) ? double(N) : 0;
      FunctionBlame &B = L.Blame[Name];
      B.Issued = std::max(0.0, B.Total - NotIssued);
    }
  }
  return true;
}

} // namespace

std::map<std::string, KernelModeledTime>
modeledTimes(const Truth &T, const ProfileSet *Profile) {
  std::map<std::string, KernelModeledTime> Out;
  std::map<std::string, double> SmSum;
  for (const TruthLaunch &TL : T.Launches) {
    if (!TL.Modeled)
      continue;
    KernelModeledTime &K = Out[TL.Kernel];
    const TruthModeled &M = *TL.Modeled;
    if (K.Launches == 0)
      K.Config = M.Config;
    ++K.Launches;
    K.Cycles += double(M.Cycles - std::min(M.Cycles, M.LaunchCycles));
    K.LaunchCycles += double(std::min(M.Cycles, M.LaunchCycles));
    K.Microseconds += M.Microseconds;
    K.SmsSimulated = std::max(K.SmsSimulated, M.SmsSimulated);
    K.Scaled |= M.Scaled;
    // The SMs the launch occupies: the configuration's, where it is known.
    std::optional<MachineConfig> C = machineConfig(M.Config);
    double Sms = C                             ? C->Sms
                 : Profile && Profile->SmCount ? Profile->SmCount
                                               : double(DefaultSms);
    double Blocks = double(TL.Grid[0] * TL.Grid[1] * TL.Grid[2]);
    SmSum[TL.Kernel] += std::min(Sms, Blocks);
  }
  for (auto &[Name, K] : Out)
    K.SmsUsed = SmSum[Name] / double(K.Launches);
  return Out;
}

namespace {

void notePresent(LoadedInputs &L) {
  std::vector<InputKind> &P = L.In.Present;
  if (L.Profile) {
    bool Counts = false, Branches = false, Launches = false, Occ = false;
    for (const FunctionProfile &F : L.Profile->Functions) {
      Counts |= !F.Blocks.empty();
      Branches |= !F.Branches.empty();
      Launches |= !F.Launches.empty();
      Occ |= F.Resources && F.Resources->Known;
    }
    if (Counts)
      P.push_back(InputKind::Counts);
    if (Branches)
      P.push_back(InputKind::Divergence);
    if (Launches)
      P.push_back(InputKind::LaunchConfig);
    if (Occ)
      P.push_back(InputKind::Occupancy);
  }
  bool Memory = false;
  for (const auto &[Name, F] : L.GroundTruth->Functions)
    for (const TruthInstruction &I : F.Insts)
      Memory |= I.Memory;
  if (Memory)
    P.push_back(InputKind::MemoryCounts);
  // The timing model's cycles per launch (launches[].modeled).
  for (const TruthLaunch &TL : L.GroundTruth->Launches)
    if (TL.Modeled) {
      P.push_back(InputKind::ModeledTime);
      break;
    }
  if (!L.Blame.empty()) {
    P.push_back(InputKind::Samples);
    P.push_back(InputKind::Instructions);
  }
}

} // namespace

Expected<std::unique_ptr<LoadedInputs>> loadAdviseInputs(RunDirectory &Run) {
  auto L = std::make_unique<LoadedInputs>();
  const std::string &Dir = Run.path();
  if (!sys::fs::is_directory(Dir))
    return fail(Dir + ": not a directory; give the directory `warpscope run "
                      "-o DIR` wrote");
  if (Run.has(files::Profile)) {
    Expected<const ProfileSet &> P = Run.profiles();
    if (!P)
      return P.takeError();
    L->Profile = &*P;
  }
  static const Truth None;
  L->GroundTruth = &None;
  if (Run.has(files::Truth)) {
    Expected<const Truth &> T = Run.truth();
    if (!T)
      return T.takeError();
    L->GroundTruth = &*T;
  }
  Expected<const std::optional<PcSampleSet> &> S = Run.pcSamples();
  if (!S)
    return S.takeError();
  L->Samples = *S ? &**S : nullptr;
  if (!L->Profile && !L->GroundTruth->Files && !L->Samples)
    return fail(Dir +
                ": holds no profile-*.json, emu-*.json or "
                "pcsamples-*.json; run `warpscope run -o " +
                Dir + " -- PROGRAM` first");
  if (L->Samples && !L->Samples->Pcs.empty() && loadListings(Run, *L) &&
      !blameAll(*L))
    L->Blame.clear();
  for (const auto &[Name, B] : L->Blame) {
    L->Nodes += B.Nodes;
    L->SingleBefore += B.SingleBefore;
    L->SingleAfter += B.SingleAfter;
  }
  L->In.ModeledTime = modeledTimes(*L->GroundTruth, L->Profile);
  notePresent(*L);
  L->In.Profile = L->Profile ? &*L->Profile : nullptr;
  L->In.GroundTruth = L->GroundTruth->Files ? L->GroundTruth : nullptr;
  L->In.Samples = L->Blame.empty() ? nullptr : L->Samples;
  L->In.Code = &L->Code;
  L->In.Blame = L->Blame.empty() ? nullptr : &L->Blame;
  L->In.SampleSource = L->Samples ? L->Samples->Source : "";
  L->In.SampleProbes = L->Samples ? L->Samples->ModelProbes : "";
  return L;
}

} // namespace warpscope::advise
