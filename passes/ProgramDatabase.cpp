//===- ProgramDatabase.cpp - JSON form of the static program database -----===//

#include "warpscope/Database/ProgramDatabase.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;
using namespace warpscope;

static json::Object locationJson(const SourceLocation &L) {
  return json::Object{{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
}

static json::Object histogramJson(const std::map<std::string, uint64_t> &H) {
  json::Object O;
  for (const auto &[Opcode, Count] : H)
    O[Opcode] = Count;
  return O;
}

static json::Array edgesJson(const std::vector<PtxEdgeRecord> &Edges) {
  json::Array A;
  for (const PtxEdgeRecord &E : Edges)
    A.push_back(json::Object{{"from", E.From},
                             {"other", E.Other},
                             {"toward", E.Toward},
                             {"other_reconverges", E.OtherReconverges},
                             {"self_reconverges", E.SelfReconverges},
                             {"ptx", histogramJson(E.Ptx)}});
  return A;
}

static json::Array
switchPartsJson(const std::vector<PtxSwitchPartRecord> &Parts) {
  json::Array A;
  for (const PtxSwitchPartRecord &P : Parts) {
    json::Array Reaches;
    for (unsigned B : P.Reaches)
      Reaches.push_back(B);
    A.push_back(json::Object{{"from", P.From},
                             {"reaches", std::move(Reaches)},
                             {"ptx", histogramJson(P.Ptx)}});
  }
  return A;
}

json::Value ProgramDatabase::toJson() const {
  json::Array Fns;
  for (const FunctionRecord &F : Functions) {
    json::Array Blocks, Branches;
    for (const BlockRecord &B : F.Blocks) {
      json::Object O = locationJson(B.Loc);
      O["id"] = B.Id;
      O["name"] = B.Name;
      O["loop_depth"] = B.LoopDepth;
      O["loop_header"] = B.LoopHeader;
      O["counter"] = B.Counter;
      if (B.Successors) {
        json::Array Succ;
        for (unsigned S : *B.Successors)
          Succ.push_back(S);
        O["successors"] = std::move(Succ);
        O["reconverges"] = B.Reconverges;
      }
      if (B.Calls) {
        json::Array Calls;
        for (const std::string &C : *B.Calls)
          Calls.push_back(C);
        O["calls"] = std::move(Calls);
      }
      json::Array Stacks;
      for (const std::vector<InlineFrame> &Stack : B.InlineStacks) {
        json::Array Frames;
        for (const InlineFrame &Fr : Stack)
          Frames.push_back(json::Object{{"function", Fr.Function},
                                        {"line_offset", Fr.LineOffset},
                                        {"discriminator", Fr.Discriminator}});
        Stacks.push_back(std::move(Frames));
      }
      O["inline_stacks"] = std::move(Stacks);
      if (B.DerivedBranch < 0) {
        O["derived_from"] = nullptr;
      } else {
        json::Object D{{"branch", B.DerivedBranch},
                       {"successor", B.DerivedSuccessor}};
        if (B.EnteredFrom >= 0)
          D["entered_from"] = B.EnteredFrom;
        O["derived_from"] = std::move(D);
      }
      O["same_counts_as"] =
          B.SameCountsAs < 0
              ? json::Value(nullptr)
              : json::Value(json::Object{
                    {"block", B.SameCountsAs},
                    {"assumes_reconvergence", B.AssumesReconvergence}});
      if (!PtxStatus.empty())
        O["ptx"] = histogramJson(B.Ptx);
      if (F.PlainPtxStatus == "mapped")
        O["plain_ptx"] = histogramJson(B.PlainPtx);
      O["promoted"] = B.Promoted;
      Blocks.push_back(std::move(O));
    }
    for (const BranchRecord &Br : F.Branches) {
      json::Object O = locationJson(Br.Loc);
      O["id"] = Br.Id;
      O["block"] = Br.Block;
      O["kind"] = branchKindName(Br.Kind);
      json::Array Succ;
      for (unsigned S : Br.Successors)
        Succ.push_back(S);
      O["successors"] = std::move(Succ);
      O["uniform"] = Br.Uniform;
      O["probed"] = Br.Probed;
      O["shares_block_counts"] = Br.SharesBlockCounts;
      O["counts_arrivals"] = Br.CountsArrivals;
      if (Br.CountsUniformVisits)
        O["counts_uniform_visits"] = true;
      O["promoted"] = Br.Promoted;
      O["counter"] = Br.Counter;
      if (Br.SourceTrueSuccessor)
        O["source_true_successor"] = *Br.SourceTrueSuccessor;
      if (!Br.LineHash.empty())
        O["line_hash"] = Br.LineHash;
      Branches.push_back(std::move(O));
    }
    json::Object O = locationJson(F.Loc);
    O["name"] = F.Name;
    O["demangled"] = F.Demangled;
    O["kind"] = F.Kernel ? "kernel" : "device";
    O["cfg_checksum"] = formatv("{0:x-16}", F.CfgChecksum).str();
    O["blocks"] = std::move(Blocks);
    O["branches"] = std::move(Branches);
    if (!PtxStatus.empty()) {
      O["ptx_unattributed"] = histogramJson(F.PtxUnattributed);
      O["ptx_instrumentation_instructions"] = F.PtxInstrumentation;
      O["ptx_edges"] = edgesJson(F.PtxEdges);
      O["ptx_switch_parts"] = switchPartsJson(F.PtxSwitchParts);
    }
    if (!F.PlainPtxStatus.empty()) {
      O["plain_ptx_status"] = F.PlainPtxStatus;
      if (F.PlainPtxStatus == "mapped") {
        O["plain_ptx_unattributed"] = histogramJson(F.PlainPtxUnattributed);
        O["plain_ptx_edges"] = edgesJson(F.PlainPtxEdges);
        O["plain_ptx_switch_parts"] = switchPartsJson(F.PlainPtxSwitchParts);
      }
    }
    if (F.SharedWithLeftOut)
      O["shared_with_left_out"] = true;
    if (!F.MathCallSites.empty()) {
      json::Array Sites;
      for (const SourceLocation &L : F.MathCallSites)
        Sites.push_back(locationJson(L));
      O["math_call_sites"] = std::move(Sites);
    }
    Fns.push_back(std::move(O));
  }
  json::Object Top{{"schema", DatabaseSchema},
                   {"abi_version", AbiVersion},
                   {"module_id", ModuleId},
                   {"source_file", SourceFile},
                   {"target", Target},
                   {"counters_symbol", CountersSymbol},
                   {"num_counters", NumCounters},
                   {"counter_replicas", CounterReplicas},
                   {"replica_stride", std::max(ReplicaStride, NumCounters)},
                   {"functions", std::move(Fns)}};
  if (!PtxStatus.empty())
    Top["ptx_histograms"] =
        json::Object{{"status", PtxStatus}, {"arch", PtxArch}};
  if (!PlainPtxStatus.empty()) {
    json::Object P{{"status", PlainPtxStatus}};
    if (!PlainPtx.empty())
      P["text"] = PlainPtx;
    Top["plain_ptx"] = std::move(P);
  }
  if (!SourceHashes.empty()) {
    json::Object Hashes;
    for (const auto &[File, Hash] : SourceHashes)
      Hashes[File] = Hash;
    Top["source_hashes"] = std::move(Hashes);
  }
  if (!KernelFilter.empty()) {
    json::Array Left;
    for (const LeftOutKernel &K : KernelsNotInstrumented)
      Left.push_back(
          json::Object{{"name", K.Name}, {"demangled", K.Demangled}});
    Top["kernel_filter"] = KernelFilter;
    Top["kernels_not_instrumented"] = std::move(Left);
  }
  return Top;
}

std::string warpscope::counterLayoutError(int64_t Replicas, int64_t Stride,
                                          uint64_t NumCounters) {
  if (Replicas >= 1 && Replicas <= int64_t(MaxCounterReplicas) && Stride >= 0 &&
      uint64_t(Stride) >= NumCounters && Stride <= UINT32_MAX)
    return "";
  return ("counter_replicas " + Twine(Replicas) + ", replica_stride " +
          Twine(Stride) + " for " + Twine(NumCounters) + " counters")
      .str();
}

namespace {
/// Reads fields with one error message naming the first missing/bad one.
class Reader {
public:
  explicit Reader(StringRef Where) : Where(Where.str()) {}
  std::string Error;

  const json::Object *object(const json::Value &V, StringRef What) {
    if (const json::Object *O = V.getAsObject())
      return O;
    fail(What, "an object");
    return nullptr;
  }
  std::string str(const json::Object &O, StringRef Key) {
    if (auto S = O.getString(Key))
      return S->str();
    fail(Key, "a string");
    return {};
  }
  int64_t num(const json::Object &O, StringRef Key) {
    if (auto N = O.getInteger(Key))
      return *N;
    fail(Key, "an integer");
    return 0;
  }
  bool flag(const json::Object &O, StringRef Key) {
    if (auto B = O.getBoolean(Key))
      return *B;
    fail(Key, "a boolean");
    return false;
  }
  const json::Array *array(const json::Object &O, StringRef Key) {
    if (const json::Array *A = O.getArray(Key))
      return A;
    fail(Key, "an array");
    return nullptr;
  }
  /// An array of block ids (non-negative integers).
  void ids(const json::Object &O, StringRef Key, std::vector<unsigned> &Out) {
    if (const json::Array *A = array(O, Key))
      for (const json::Value &V : *A) {
        std::optional<int64_t> Id = V.getAsInteger();
        if (!Id || *Id < 0 || *Id > UINT32_MAX)
          return fail(Key, "an array of block ids");
        Out.push_back(unsigned(*Id));
      }
  }
  /// An optional {opcode: count} object; false if present but malformed.
  void histogram(const json::Object &O, StringRef Key,
                 std::map<std::string, uint64_t> &Out) {
    const json::Value *V = O.get(Key);
    if (!V)
      return;
    const json::Object *H = V->getAsObject();
    if (!H)
      return fail(Key, "an object of counts");
    for (const auto &[Opcode, Count] : *H) {
      auto N = Count.getAsInteger();
      if (!N || *N < 0)
        return fail(Key, "an object of counts");
      Out[Opcode.str()] = *N;
    }
  }
  /// An optional {name: string} object.
  void stringMap(const json::Object &O, StringRef Key,
                 std::map<std::string, std::string> &Out) {
    const json::Object *M = O.getObject(Key);
    if (!M)
      return O.get(Key) ? fail(Key, "an object of strings") : void();
    for (const auto &[Name, Value] : *M) {
      auto S = Value.getAsString();
      if (!S)
        return fail(Key, "an object of strings");
      Out[Name.str()] = S->str();
    }
  }
  SourceLocation location(const json::Object &O) {
    return {str(O, "file"), unsigned(num(O, "line")),
            unsigned(num(O, "column"))};
  }

private:
  std::string Where;
  void fail(StringRef Key, StringRef Expected) {
    if (Error.empty())
      Error =
          (Where + ": field '" + Key + "' is missing or not " + Expected).str();
  }
};

// One record of each kind; errors are kept in R (the first one wins).
BlockRecord readBlock(Reader &R, const json::Object &BO) {
  BlockRecord B;
  B.Id = R.num(BO, "id");
  B.Name = R.str(BO, "name");
  B.Loc = R.location(BO);
  B.LoopDepth = R.num(BO, "loop_depth");
  B.LoopHeader = R.flag(BO, "loop_header");
  B.Counter = R.num(BO, "counter");
  // Optional: without them, edge counts are not derived by flow.
  if (BO.get("successors")) {
    R.ids(BO, "successors", B.Successors.emplace());
    B.Reconverges = R.flag(BO, "reconverges");
  }
  // Optional: without it, the report has no calling context.
  if (const json::Value *CV = BO.get("calls")) {
    const json::Array *Calls = CV->getAsArray();
    B.Calls.emplace();
    for (size_t I = 0; Calls && I < Calls->size(); ++I)
      if (std::optional<StringRef> C = (*Calls)[I].getAsString())
        B.Calls->push_back(C->str());
      else
        Calls = nullptr;
    if (!Calls && R.Error.empty())
      R.Error = "program database: field 'calls' of a block is not an "
                "array of strings";
  }
  // Optional: without it, no sample profile for the block.
  if (const json::Array *Stacks = BO.getArray("inline_stacks"))
    for (const json::Value &SV : *Stacks) {
      const json::Array *Frames = SV.getAsArray();
      if (!Frames) {
        R.object(SV, "inline_stacks[]"); // records the error
        break;
      }
      std::vector<InlineFrame> Stack;
      for (const json::Value &FV : *Frames)
        if (const json::Object *FO = R.object(FV, "inline frame"))
          Stack.push_back({R.str(*FO, "function"),
                           unsigned(R.num(*FO, "line_offset")),
                           unsigned(R.num(*FO, "discriminator"))});
      B.InlineStacks.push_back(std::move(Stack));
    }
  if (const json::Value *D = BO.get("derived_from"); D && D->getAsObject()) {
    B.DerivedBranch = R.num(*D->getAsObject(), "branch");
    B.DerivedSuccessor = R.num(*D->getAsObject(), "successor");
    // Absent before schema 4 and for blocks with one way in.
    if (std::optional<int64_t> E = D->getAsObject()->getInteger("entered_from"))
      B.EnteredFrom = *E < 0 ? -2 : int(std::min<int64_t>(*E, INT32_MAX));
  } else if (!D || !D->getAsNull()) {
    R.Error = R.Error.empty() ? "program database: field "
                                "'derived_from' is missing or not "
                                "an object or null"
                              : R.Error;
  }
  // Absent in databases of older plugins.
  if (const json::Value *S = BO.get("same_counts_as"); S && S->getAsObject()) {
    B.SameCountsAs = R.num(*S->getAsObject(), "block");
    B.AssumesReconvergence =
        S->getAsObject()->getBoolean("assumes_reconvergence").value_or(false);
  } else if (S && !S->getAsNull()) {
    R.Error = R.Error.empty() ? "program database: field "
                                "'same_counts_as' is not an "
                                "object or null"
                              : R.Error;
  }
  R.histogram(BO, "ptx", B.Ptx);
  R.histogram(BO, "plain_ptx", B.PlainPtx);
  B.Promoted = BO.getBoolean("promoted").value_or(false);
  return B;
}

BranchRecord readBranch(Reader &R, const json::Object &BO) {
  BranchRecord Br;
  Br.Id = R.num(BO, "id");
  Br.Block = R.num(BO, "block");
  Br.Kind = R.str(BO, "kind") == "switch" ? BranchKind::Switch
                                          : BranchKind::Conditional;
  Br.Loc = R.location(BO);
  R.ids(BO, "successors", Br.Successors);
  Br.Uniform = R.flag(BO, "uniform");
  Br.Probed = R.flag(BO, "probed");
  Br.SharesBlockCounts = R.flag(BO, "shares_block_counts");
  Br.CountsUniformVisits =
      BO.getBoolean("counts_uniform_visits").value_or(false);
  Br.CountsArrivals = BO.getBoolean("counts_arrivals").value_or(false);
  Br.Promoted = BO.getBoolean("promoted").value_or(false);
  Br.Counter = R.num(BO, "counter");
  if (std::optional<int64_t> S = BO.getInteger("source_true_successor"))
    Br.SourceTrueSuccessor = unsigned(*S);
  if (std::optional<StringRef> H = BO.getString("line_hash"))
    Br.LineHash = H->str();
  return Br;
}

PtxEdgeRecord readPtxEdge(Reader &R, const json::Object &EO,
                          const FunctionRecord &F) {
  PtxEdgeRecord E;
  E.From = R.num(EO, "from");
  E.Other = R.num(EO, "other");
  E.Toward = R.flag(EO, "toward");
  E.OtherReconverges = R.flag(EO, "other_reconverges");
  E.SelfReconverges = R.flag(EO, "self_reconverges");
  R.histogram(EO, "ptx", E.Ptx);
  if (E.From >= F.Blocks.size() || E.Other >= F.Blocks.size())
    R.Error = R.Error.empty() ? "program database: a ptx edge of " + F.Name +
                                    " names no block"
                              : R.Error;
  return E;
}

PtxSwitchPartRecord readSwitchPart(Reader &R, const json::Object &PO,
                                   const FunctionRecord &F) {
  PtxSwitchPartRecord P;
  P.From = R.num(PO, "from");
  R.ids(PO, "reaches", P.Reaches);
  R.histogram(PO, "ptx", P.Ptx);
  bool Named = P.From < F.Blocks.size();
  for (unsigned B : P.Reaches)
    Named &= B < F.Blocks.size();
  if (!Named)
    R.Error = R.Error.empty() ? "program database: a ptx switch "
                                "part of " +
                                    F.Name + " names no block"
                              : R.Error;
  return P;
}

/// The optional arrays of edge and switch-part histograms named EdgesKey
/// and PartsKey.
void readPtxPieces(Reader &R, const json::Object &FO, StringRef EdgesKey,
                   StringRef PartsKey, const FunctionRecord &F,
                   std::vector<PtxEdgeRecord> &Edges,
                   std::vector<PtxSwitchPartRecord> &Parts) {
  if (const json::Array *Es = FO.getArray(EdgesKey))
    for (const json::Value &EV : *Es)
      if (const json::Object *EO = R.object(EV, "ptx edge"))
        Edges.push_back(readPtxEdge(R, *EO, F));
  if (const json::Array *Ps = FO.getArray(PartsKey))
    for (const json::Value &PV : *Ps)
      if (const json::Object *PO = R.object(PV, "ptx switch part"))
        Parts.push_back(readSwitchPart(R, *PO, F));
}

FunctionRecord readFunction(Reader &R, const json::Object &FO) {
  FunctionRecord F;
  F.Name = R.str(FO, "name");
  F.Demangled = R.str(FO, "demangled");
  F.Kernel = R.str(FO, "kind") == "kernel";
  F.Loc = R.location(FO);
  StringRef(R.str(FO, "cfg_checksum")).getAsInteger(16, F.CfgChecksum);
  if (const json::Array *Bs = R.array(FO, "blocks"))
    for (const json::Value &BV : *Bs)
      if (const json::Object *BO = R.object(BV, "block"))
        F.Blocks.push_back(readBlock(R, *BO));
  if (const json::Array *Brs = R.array(FO, "branches"))
    for (const json::Value &BV : *Brs)
      if (const json::Object *BO = R.object(BV, "branch"))
        F.Branches.push_back(readBranch(R, *BO));
  R.histogram(FO, "ptx_unattributed", F.PtxUnattributed);
  readPtxPieces(R, FO, "ptx_edges", "ptx_switch_parts", F, F.PtxEdges,
                F.PtxSwitchParts);
  // Optional: only builds that made the plain build's PTX have them.
  if (FO.get("plain_ptx_status")) {
    F.PlainPtxStatus = R.str(FO, "plain_ptx_status");
    R.histogram(FO, "plain_ptx_unattributed", F.PlainPtxUnattributed);
    readPtxPieces(R, FO, "plain_ptx_edges", "plain_ptx_switch_parts", F,
                  F.PlainPtxEdges, F.PlainPtxSwitchParts);
  }
  F.PtxInstrumentation =
      FO.getInteger("ptx_instrumentation_instructions").value_or(0);
  F.SharedWithLeftOut = FO.getBoolean("shared_with_left_out").value_or(false);
  // Optional: only builds that moved math library code onto users' lines.
  if (FO.get("math_call_sites"))
    if (const json::Array *Sites = R.array(FO, "math_call_sites"))
      for (const json::Value &SV : *Sites)
        if (const json::Object *SO = R.object(SV, "math call site"))
          F.MathCallSites.push_back(R.location(*SO));
  return F;
}

/// A block whose derivation comes back to itself: derived from a branch
/// that shares its block's counts, that block derived in turn, and so on
/// (the counts of such a chain come from the record at its start).
/// Derivations must already name valid branches.
std::optional<unsigned> derivationCycle(const FunctionRecord &F) {
  // The block whose counts give I's branch its visits, and so on.
  auto Next = [&](size_t I) -> std::optional<size_t> {
    const BlockRecord &B = F.Blocks[I];
    // A loop header needs its preheader's counts (and only the latch
    // branch's own words, never the latch block's).
    if (B.EnteredFrom >= 0)
      return size_t(B.EnteredFrom);
    if (B.DerivedBranch < 0 || !F.Branches[B.DerivedBranch].SharesBlockCounts)
      return std::nullopt;
    return F.Branches[B.DerivedBranch].Block;
  };
  enum : char { Unseen, OnPath, Done };
  std::vector<char> State(F.Blocks.size(), Unseen);
  for (size_t Start = 0; Start < F.Blocks.size(); ++Start) {
    std::vector<size_t> Path;
    std::optional<size_t> I = Start;
    while (I && *I < F.Blocks.size() && State[*I] == Unseen) {
      State[*I] = OnPath;
      Path.push_back(*I);
      I = Next(*I);
    }
    if (I && *I < F.Blocks.size() && State[*I] == OnPath)
      return F.Blocks[*I].Id;
    for (size_t K : Path)
      State[K] = Done;
  }
  return std::nullopt;
}

/// "" or why a block's derivation or equivalence names nothing it can use.
std::string referenceError(const ProgramDatabase &DB) {
  // Derivations must point at a successor of a probed two-way branch, or of
  // a probed switch that counts arrivals, of the same function.
  auto CanDerive = [](const FunctionRecord &F, const BlockRecord &B) {
    if (size_t(B.DerivedBranch) >= F.Branches.size())
      return false;
    const BranchRecord &Br = F.Branches[B.DerivedBranch];
    size_t N = Br.Successors.size();
    return Br.Probed && B.DerivedSuccessor < N &&
           (N == 2 || (N > 2 && Br.CountsArrivals));
  };
  // A loop header adds a side of a two-way branch to the counts of another
  // block of the function, one with counts of its own; successor 1 (whose
  // counts need the branch's visits) only of another block's branch.
  auto CanEnter = [](const FunctionRecord &F, const BlockRecord &B) {
    if (B.EnteredFrom == -1)
      return true;
    return B.DerivedBranch >= 0 && B.EnteredFrom >= 0 &&
           size_t(B.EnteredFrom) < F.Blocks.size() &&
           unsigned(B.EnteredFrom) != B.Id &&
           F.Branches[B.DerivedBranch].Successors.size() == 2 &&
           (B.DerivedSuccessor == 0 ||
            F.Branches[B.DerivedBranch].Block != B.Id) &&
           F.Blocks[B.EnteredFrom].SameCountsAs < 0;
  };
  for (const FunctionRecord &F : DB.Functions)
    for (const BlockRecord &B : F.Blocks)
      if ((B.DerivedBranch >= 0 && !CanDerive(F, B)) || !CanEnter(F, B))
        return "program database: block " + std::to_string(B.Id) + " of " +
               F.Name + " is derived from a branch that cannot give its counts";
  for (const FunctionRecord &F : DB.Functions)
    if (std::optional<unsigned> Id = derivationCycle(F))
      return "program database: block " + std::to_string(*Id) + " of " +
             F.Name + " is derived from its own counts (a cycle)";
  for (const FunctionRecord &F : DB.Functions)
    for (const BranchRecord &Br : F.Branches)
      if (Br.SourceTrueSuccessor &&
          (Br.Successors.size() != 2 || *Br.SourceTrueSuccessor > 1))
        return "program database: branch " + std::to_string(Br.Id) + " of " +
               F.Name + " names a source true side it does not have";
  // An equivalence must name another block of the function, one that has
  // counts of its own (probed or derived from a branch).
  for (const FunctionRecord &F : DB.Functions)
    for (const BlockRecord &B : F.Blocks)
      if (B.SameCountsAs >= 0 &&
          (size_t(B.SameCountsAs) >= F.Blocks.size() ||
           unsigned(B.SameCountsAs) == B.Id || B.DerivedBranch >= 0 ||
           F.Blocks[B.SameCountsAs].SameCountsAs >= 0))
        return "program database: block " + std::to_string(B.Id) + " of " +
               F.Name + " takes its counts from a block that cannot give them";
  return "";
}
} // namespace

Expected<ProgramDatabase> ProgramDatabase::fromJson(const json::Value &V) {
  Reader R("program database");
  ProgramDatabase DB;
  const json::Object *Top = R.object(V, "document");
  if (!Top)
    return createStringError(R.Error);
  std::string Schema = R.str(*Top, "schema");
  if (R.Error.empty() && Schema != DatabaseSchema &&
      Schema != DatabaseSchemaV3 && Schema != DatabaseSchemaV2 &&
      Schema != DatabaseSchemaV1)
    return createStringError("program database has schema '" + Schema +
                             "', expected '" + DatabaseSchema + "'");
  DB.ModuleId = R.str(*Top, "module_id");
  DB.SourceFile = R.str(*Top, "source_file");
  DB.Target = R.str(*Top, "target");
  DB.CountersSymbol = R.str(*Top, "counters_symbol");
  DB.NumCounters = R.num(*Top, "num_counters");
  // Optional: databases written before replicas have one copy.
  int64_t Replicas = Top->getInteger("counter_replicas").value_or(1);
  int64_t Stride =
      Top->getInteger("replica_stride").value_or(int64_t(DB.NumCounters));
  if (std::string Bad = counterLayoutError(Replicas, Stride, DB.NumCounters);
      R.Error.empty() && !Bad.empty())
    return createStringError("program database has a bad counter layout (" +
                             Bad + ")");
  DB.CounterReplicas = uint64_t(Replicas);
  DB.ReplicaStride = uint64_t(Stride);
  if (const json::Array *Fns = R.array(*Top, "functions"))
    for (const json::Value &FV : *Fns) {
      const json::Object *FO = R.object(FV, "function");
      if (!FO)
        break;
      DB.Functions.push_back(readFunction(R, *FO));
    }
  if (const json::Object *P = Top->getObject("ptx_histograms")) {
    DB.PtxStatus = R.str(*P, "status");
    DB.PtxArch = R.str(*P, "arch");
  }
  if (const json::Object *P = Top->getObject("plain_ptx")) {
    DB.PlainPtxStatus = R.str(*P, "status");
    if (P->get("text"))
      DB.PlainPtx = R.str(*P, "text");
  }
  // Optional: databases written before the hashes have none.
  R.stringMap(*Top, "source_hashes", DB.SourceHashes);
  // Optional: only builds with -warpscope-kernel-filter have them.
  if (Top->get("kernel_filter")) {
    DB.KernelFilter = R.str(*Top, "kernel_filter");
    if (const json::Array *Ks = R.array(*Top, "kernels_not_instrumented"))
      for (const json::Value &KV : *Ks)
        if (const json::Object *KO = R.object(KV, "kernel not instrumented"))
          DB.KernelsNotInstrumented.push_back(
              {R.str(*KO, "name"), R.str(*KO, "demangled")});
  }
  if (!R.Error.empty())
    return createStringError(R.Error);
  if (std::string Bad = referenceError(DB); !Bad.empty())
    return createStringError(Bad);
  return DB;
}

Error ProgramDatabase::writeFile(StringRef Path) const {
  SmallString<128> Dir = sys::path::parent_path(Path);
  if (!Dir.empty())
    if (std::error_code EC = sys::fs::create_directories(Dir))
      return createStringError(EC, "cannot create directory '" + Dir + "'");
  std::string Temp =
      (Path + ".tmp." + Twine(sys::Process::getProcessId())).str();
  {
    std::error_code EC;
    raw_fd_ostream OS(Temp, EC, sys::fs::OF_Text);
    if (EC)
      return createStringError(EC, "cannot write '" + Temp + "'");
    OS << formatv("{0:2}", toJson()) << "\n";
    OS.close();
    if (OS.has_error())
      return createStringError(OS.error(), "cannot write '" + Temp + "'");
  }
  if (std::error_code EC = sys::fs::rename(Temp, Path))
    return createStringError(EC,
                             "cannot rename '" + Temp + "' to '" + Path + "'");
  return Error::success();
}

std::set<std::string> ProgramDatabase::referencedFiles() const {
  std::set<std::string> Files;
  auto Add = [&](const SourceLocation &L) {
    if (!L.File.empty())
      Files.insert(L.File);
  };
  for (const FunctionRecord &F : Functions) {
    Add(F.Loc);
    for (const BlockRecord &B : F.Blocks)
      Add(B.Loc);
    for (const BranchRecord &B : F.Branches)
      Add(B.Loc);
  }
  return Files;
}

std::string ProgramDatabase::sourceHash(StringRef Contents) {
  return formatv("{0:x-16}", xxh3_64bits(Contents)).str();
}
