//===- ProgramDatabaseTest.cpp - Database writer and reader
//----------------===//

#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace warpscope;

namespace {

BlockRecord block(unsigned Id, std::string Name, SourceLocation Loc,
                  unsigned LoopDepth, bool LoopHeader, int64_t Counter) {
  BlockRecord B;
  B.Id = Id;
  B.Name = std::move(Name);
  B.Loc = std::move(Loc);
  B.LoopDepth = LoopDepth;
  B.LoopHeader = LoopHeader;
  B.Counter = Counter;
  return B;
}

ProgramDatabase sampleDatabase() {
  ProgramDatabase DB;
  DB.ModuleId = "0123456789abcdef";
  DB.SourceFile = "k.cu";
  DB.Target = "sm_90";
  DB.CountersSymbol = "__warpscope_counters_0123456789abcdef";
  DB.NumCounters = 9;
  FunctionRecord F;
  F.Name = "_Z1kPi";
  F.Demangled = "k(int*)";
  F.Kernel = true;
  F.Loc = {"/src/k.cu", 3, 0};
  F.CfgChecksum = 0xfeedfacecafebeefULL;
  F.Blocks.push_back(block(0, "entry", {"/src/k.cu", 4, 7}, 0, false, 0));
  F.Blocks.push_back(block(1, "", {"/src/k.cu", 5, 9}, 1, true, 5));
  BranchRecord Br;
  Br.Id = 0;
  Br.Block = 0;
  Br.Kind = BranchKind::Switch;
  Br.Loc = {"/src/k.cu", 4, 11};
  Br.Successors = {1, 0, 2};
  Br.Uniform = false;
  Br.Probed = true;
  Br.Counter = 2;
  F.Branches.push_back(Br);
  DB.Functions.push_back(F);
  return DB;
}

TEST(ProgramDatabase, RoundTripsThroughJson) {
  ProgramDatabase In = sampleDatabase();
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(In.toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->ModuleId, In.ModuleId);
  EXPECT_EQ(Out->NumCounters, 9u);
  ASSERT_EQ(Out->Functions.size(), 1u);
  const FunctionRecord &F = Out->Functions[0];
  EXPECT_TRUE(F.Kernel);
  EXPECT_EQ(F.Demangled, "k(int*)");
  EXPECT_EQ(F.CfgChecksum, 0xfeedfacecafebeefULL);
  ASSERT_EQ(F.Blocks.size(), 2u);
  EXPECT_EQ(F.Blocks[1].LoopDepth, 1u);
  EXPECT_TRUE(F.Blocks[1].LoopHeader);
  EXPECT_EQ(F.Blocks[1].Counter, 5);
  EXPECT_EQ(F.Blocks[1].Loc.Line, 5u);
  ASSERT_EQ(F.Branches.size(), 1u);
  EXPECT_EQ(F.Branches[0].Kind, BranchKind::Switch);
  EXPECT_EQ(F.Branches[0].Successors, (std::vector<unsigned>{1, 0, 2}));
  EXPECT_EQ(F.Branches[0].Loc.Column, 11u);
  EXPECT_TRUE(F.Branches[0].Probed);
}

TEST(ProgramDatabase, KernelFilterRoundTripsAndIsOptional) {
  ProgramDatabase DB = sampleDatabase();
  DB.KernelFilter = "^k";
  DB.KernelsNotInstrumented = {{"_Z4dropPi", "drop(int*)"}};
  DB.Functions[0].SharedWithLeftOut = true;
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(DB.toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->KernelFilter, "^k");
  ASSERT_EQ(Out->KernelsNotInstrumented.size(), 1u);
  EXPECT_EQ(Out->KernelsNotInstrumented[0].Name, "_Z4dropPi");
  EXPECT_EQ(Out->KernelsNotInstrumented[0].Demangled, "drop(int*)");
  EXPECT_TRUE(Out->Functions[0].SharedWithLeftOut);
  // Without a filter nothing is written, and nothing is read back.
  json::Value V = sampleDatabase().toJson();
  EXPECT_FALSE(V.getAsObject()->get("kernel_filter"));
  Expected<ProgramDatabase> Plain = ProgramDatabase::fromJson(V);
  ASSERT_TRUE(bool(Plain)) << toString(Plain.takeError());
  EXPECT_EQ(Plain->KernelFilter, "");
  EXPECT_TRUE(Plain->KernelsNotInstrumented.empty());
  EXPECT_FALSE(Plain->Functions[0].SharedWithLeftOut);
  // A filter without its list is a damaged database.
  json::Value Bad = DB.toJson();
  Bad.getAsObject()->erase("kernels_not_instrumented");
  Expected<ProgramDatabase> Damaged = ProgramDatabase::fromJson(Bad);
  ASSERT_FALSE(bool(Damaged));
  EXPECT_NE(toString(Damaged.takeError()).find("kernels_not_instrumented"),
            std::string::npos);
}

TEST(ProgramDatabase, MathCallSitesRoundTripAndAreOptional) {
  ProgramDatabase DB = sampleDatabase();
  DB.Functions[0].MathCallSites = {{"/src/k.cu", 39, 10},
                                   {"/src/k.cu", 39, 27}};
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(DB.toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  const auto &Sites = Out->Functions[0].MathCallSites;
  ASSERT_EQ(Sites.size(), 2u);
  EXPECT_EQ(Sites[0].File, "/src/k.cu");
  EXPECT_EQ(Sites[0].Line, 39u);
  EXPECT_EQ(Sites[0].Column, 10u);
  EXPECT_EQ(Sites[1].Column, 27u);
  // None: nothing written (older readers' databases stay the same).
  json::Value V = sampleDatabase().toJson();
  const json::Array *Fns = V.getAsObject()->getArray("functions");
  ASSERT_TRUE(Fns && !Fns->empty());
  EXPECT_FALSE((*Fns)[0].getAsObject()->get("math_call_sites"));
  // A site that is not an object is a damaged database.
  json::Value Bad = DB.toJson();
  (*(*Bad.getAsObject()->getArray("functions"))[0].getAsObject()->getArray(
      "math_call_sites"))[0] = 7;
  EXPECT_FALSE(bool(ProgramDatabase::fromJson(Bad)));
}

TEST(ProgramDatabase, PlainPtxRoundTripsAndIsOptional) {
  ProgramDatabase DB = sampleDatabase();
  DB.PtxStatus = "ok";
  DB.PlainPtx = ".version 8.6";
  DB.PlainPtxStatus = "ok";
  FunctionRecord &F = DB.Functions[0];
  F.PlainPtxStatus = "mapped";
  F.Blocks[1].PlainPtx = {{"setp.ge.s32", 3}};
  F.PlainPtxEdges.push_back({0, 1, true, false, true, {{"mov.u32", 1}}});
  F.PlainPtxSwitchParts.push_back({0, {1}, {{"brx.idx", 1}}});
  F.PlainPtxUnattributed = {{"nop", 2}};
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(DB.toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->PlainPtx, ".version 8.6");
  EXPECT_EQ(Out->PlainPtxStatus, "ok");
  const FunctionRecord &G = Out->Functions[0];
  EXPECT_EQ(G.PlainPtxStatus, "mapped");
  EXPECT_EQ(G.Blocks[1].PlainPtx.at("setp.ge.s32"), 3u);
  EXPECT_TRUE(G.Blocks[1].Ptx.empty());
  ASSERT_EQ(G.PlainPtxEdges.size(), 1u);
  EXPECT_EQ(G.PlainPtxEdges[0].Other, 1u);
  EXPECT_TRUE(G.PlainPtxEdges[0].Toward);
  EXPECT_EQ(G.PlainPtxEdges[0].Ptx.at("mov.u32"), 1u);
  EXPECT_TRUE(G.PtxEdges.empty());
  ASSERT_EQ(G.PlainPtxSwitchParts.size(), 1u);
  EXPECT_EQ(G.PlainPtxSwitchParts[0].Reaches, (std::vector<unsigned>{1}));
  EXPECT_EQ(G.PlainPtxUnattributed.at("nop"), 2u);
  // "same" stores no histograms; without a plain PTX, no field at all.
  DB.Functions[0].PlainPtxStatus = "same";
  json::Value Same = DB.toJson();
  const json::Object *FO =
      (*Same.getAsObject()->getArray("functions"))[0].getAsObject();
  EXPECT_FALSE(FO->get("plain_ptx_edges"));
  json::Value None = sampleDatabase().toJson();
  EXPECT_FALSE(None.getAsObject()->get("plain_ptx"));
  Expected<ProgramDatabase> Old = ProgramDatabase::fromJson(None);
  ASSERT_TRUE(bool(Old)) << toString(Old.takeError());
  EXPECT_EQ(Old->Functions[0].PlainPtxStatus, "");
  // An edge naming no block is a damaged database.
  DB.Functions[0].PlainPtxStatus = "mapped";
  DB.Functions[0].PlainPtxEdges[0].Other = 7;
  Expected<ProgramDatabase> Damaged = ProgramDatabase::fromJson(DB.toJson());
  ASSERT_FALSE(bool(Damaged));
  EXPECT_NE(toString(Damaged.takeError()).find("names no block"),
            std::string::npos);
}

TEST(ProgramDatabase, SchemaAndVersionAreWritten) {
  json::Value V = sampleDatabase().toJson();
  EXPECT_EQ(V.getAsObject()->getString("schema"), "warpscope-db/4");
  EXPECT_EQ(V.getAsObject()->getInteger("abi_version"), 3);
  EXPECT_EQ(V.getAsObject()->getString("counters_symbol"),
            "__warpscope_counters_0123456789abcdef");
}

TEST(ProgramDatabase, CounterReplicasRoundTripAndDefault) {
  ProgramDatabase DB = sampleDatabase();
  DB.CounterReplicas = 256;
  DB.ReplicaStride = 16;
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(DB.toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->CounterReplicas, 256u);
  EXPECT_EQ(Out->ReplicaStride, 16u);
  // Written before replicas: one copy, as long as the counters.
  json::Value V = sampleDatabase().toJson();
  V.getAsObject()->erase("counter_replicas");
  V.getAsObject()->erase("replica_stride");
  Expected<ProgramDatabase> Old = ProgramDatabase::fromJson(V);
  ASSERT_TRUE(bool(Old)) << toString(Old.takeError());
  EXPECT_EQ(Old->CounterReplicas, 1u);
  EXPECT_EQ(Old->ReplicaStride, Old->NumCounters);
}

TEST(ProgramDatabase, RejectsABadCounterLayout) {
  for (auto [Replicas, Stride] :
       {std::pair<int64_t, int64_t>{0, 16}, {2048, 16}, {4, 3}, {-1, 16}}) {
    json::Value V = sampleDatabase().toJson();
    (*V.getAsObject())["counter_replicas"] = Replicas;
    (*V.getAsObject())["replica_stride"] = Stride;
    Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(V);
    ASSERT_FALSE(bool(Out)) << Replicas << " " << Stride;
    EXPECT_NE(toString(Out.takeError()).find("bad counter layout"),
              std::string::npos);
  }
}

TEST(ProgramDatabase, RejectsForeignSchema) {
  json::Value V = sampleDatabase().toJson();
  (*V.getAsObject())["schema"] = "warpscope-db/99";
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(V);
  ASSERT_FALSE(bool(Out));
  EXPECT_NE(toString(Out.takeError()).find("warpscope-db/99"),
            std::string::npos);
}

TEST(ProgramDatabase, NamesTheMissingField) {
  json::Value V = sampleDatabase().toJson();
  json::Object &Fn =
      *(*V.getAsObject()->getArray("functions"))[0].getAsObject();
  json::Object &Block = *(*Fn.getArray("blocks"))[1].getAsObject();
  Block.erase("loop_depth");
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(V);
  ASSERT_FALSE(bool(Out));
  EXPECT_NE(toString(Out.takeError()).find("'loop_depth'"), std::string::npos);
}

TEST(ProgramDatabase, KeepsEquivalentBlocks) {
  ProgramDatabase In = sampleDatabase();
  In.Functions[0].Blocks[1].SameCountsAs = 0;
  In.Functions[0].Blocks[1].AssumesReconvergence = true;
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(In.toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->Functions[0].Blocks[0].SameCountsAs, -1);
  EXPECT_EQ(Out->Functions[0].Blocks[1].SameCountsAs, 0);
  EXPECT_TRUE(Out->Functions[0].Blocks[1].AssumesReconvergence);
}

TEST(ProgramDatabase, KeepsCallsAndTheirAbsence) {
  ProgramDatabase In = sampleDatabase();
  In.Functions[0].Blocks[1].Calls =
      std::vector<std::string>{"_Z6helperi", "", "_Z6helperi"};
  In.Functions[0].Blocks[0].Calls = std::vector<std::string>{};
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(In.toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->Functions[0].Blocks[1].Calls, In.Functions[0].Blocks[1].Calls);
  ASSERT_TRUE(Out->Functions[0].Blocks[0].Calls.has_value());
  EXPECT_TRUE(Out->Functions[0].Blocks[0].Calls->empty());
  // Older databases have no calls: absent, not empty.
  Expected<ProgramDatabase> Old =
      ProgramDatabase::fromJson(sampleDatabase().toJson());
  ASSERT_TRUE(bool(Old)) << toString(Old.takeError());
  EXPECT_FALSE(Old->Functions[0].Blocks[1].Calls.has_value());
  // A malformed list is one error naming the field.
  json::Value V = In.toJson();
  json::Object &Fn =
      *(*V.getAsObject()->getArray("functions"))[0].getAsObject();
  (*(*Fn.getArray("blocks"))[1].getAsObject())["calls"] = json::Array{1, 2};
  Expected<ProgramDatabase> Bad = ProgramDatabase::fromJson(V);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("'calls'"), std::string::npos);
}

TEST(ProgramDatabase, RejectsEquivalenceWithoutCounts) {
  // Itself, a block that does not exist, a block that takes its counts from
  // another: none can give counts.
  for (int Bad : {1, 7, -2}) {
    ProgramDatabase In = sampleDatabase();
    In.Functions[0].Blocks[1].SameCountsAs = Bad == -2 ? 0 : Bad;
    if (Bad == -2) {
      In.Functions[0].Blocks.push_back(block(2, "", {}, 0, false, 7));
      In.Functions[0].Blocks[0].SameCountsAs = 2;
    }
    Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(In.toJson());
    ASSERT_FALSE(bool(Out)) << Bad;
    EXPECT_NE(toString(Out.takeError()).find("cannot give them"),
              std::string::npos);
  }
}

/// Block 1 a loop header: entered from block 0 (a third block here), back
/// over successor 0 of the two-way branch 0.
static ProgramDatabase headerDatabase() {
  ProgramDatabase In = sampleDatabase();
  BranchRecord &Br = In.Functions[0].Branches[0];
  Br.Kind = BranchKind::Conditional;
  Br.Successors = {1, 2};
  In.Functions[0].Blocks.push_back(block(2, "", {}, 0, false, 7));
  In.Functions[0].Blocks[1].DerivedBranch = 0;
  In.Functions[0].Blocks[1].EnteredFrom = 2;
  return In;
}

TEST(ProgramDatabase, KeepsDerivedLoopHeaders) {
  Expected<ProgramDatabase> Out =
      ProgramDatabase::fromJson(headerDatabase().toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->Functions[0].Blocks[1].EnteredFrom, 2);
  EXPECT_EQ(Out->Functions[0].Blocks[0].EnteredFrom, -1);
  EXPECT_EQ(Out->Functions[0].Blocks[2].EnteredFrom, -1);
  // Over successor 1 of another block's branch (the branch's visits give
  // its counts).
  ProgramDatabase Second = headerDatabase();
  Second.Functions[0].Blocks[1].DerivedSuccessor = 1;
  Out = ProgramDatabase::fromJson(Second.toJson());
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->Functions[0].Blocks[1].DerivedSuccessor, 1u);
}

TEST(ProgramDatabase, RejectsHeadersThatCannotBeDerived) {
  // Entered from itself, from no block, from a block without counts of its
  // own, from a negative id, over successor 1 of its own branch, from a
  // switch; a cycle of two headers entered from each other.
  for (int Case = 0; Case < 7; ++Case) {
    ProgramDatabase In = headerDatabase();
    FunctionRecord &F = In.Functions[0];
    BlockRecord &H = F.Blocks[1];
    switch (Case) {
    case 0:
      H.EnteredFrom = 1;
      break;
    case 1:
      H.EnteredFrom = 9;
      break;
    case 2:
      F.Blocks[2].SameCountsAs = 0;
      break;
    case 4:
      H.DerivedSuccessor = 1;
      F.Branches[0].Block = 1;
      break;
    case 5:
      F.Branches[0].Kind = BranchKind::Switch;
      F.Branches[0].Successors = {1, 2, 0};
      F.Branches[0].CountsArrivals = true;
      break;
    case 6:
      F.Blocks[2].DerivedBranch = 0;
      F.Blocks[2].EnteredFrom = 1;
      break;
    }
    json::Value V = In.toJson();
    if (Case == 3) {
      json::Object &Fn =
          *(*V.getAsObject()->getArray("functions"))[0].getAsObject();
      json::Object &B = *(*Fn.getArray("blocks"))[1].getAsObject();
      (*B.getObject("derived_from"))["entered_from"] = -5;
    }
    Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(V);
    ASSERT_FALSE(bool(Out)) << Case;
    std::string Error = toString(Out.takeError());
    EXPECT_NE(Error.find(Case == 6 ? "a cycle" : "cannot give its counts"),
              std::string::npos)
        << Case << ": " << Error;
  }
}

TEST(ProgramDatabase, ReadsVersionOne) {
  json::Value V = sampleDatabase().toJson();
  (*V.getAsObject())["schema"] = "warpscope-db/1";
  for (json::Value &B :
       *(*(*V.getAsObject()->getArray("functions"))[0].getAsObject())
            .getArray("blocks"))
    B.getAsObject()->erase("same_counts_as");
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(V);
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  EXPECT_EQ(Out->Functions[0].Blocks[1].SameCountsAs, -1);
}

TEST(ProgramDatabase, RejectsNonObjects) {
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(json::Value(42));
  ASSERT_FALSE(bool(Out));
  consumeError(Out.takeError());
}

TEST(ProgramDatabase, WritesAtomicallyAndReadsBack) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("wsdb", Dir));
  std::string Path = (Dir + "/sub/db.json").str();
  ASSERT_FALSE(bool(sampleDatabase().writeFile(Path)));
  auto Buf = MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Buf));
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  ASSERT_TRUE(bool(V));
  Expected<ProgramDatabase> Out = ProgramDatabase::fromJson(*V);
  ASSERT_TRUE(bool(Out));
  EXPECT_EQ(Out->Functions[0].Blocks.size(), 2u);
  // No temp file is left beside it.
  std::error_code EC;
  unsigned Entries = 0;
  for (sys::fs::directory_iterator I(Dir + "/sub", EC), E; I != E && !EC;
       I.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 1u);
  sys::fs::remove_directories(Dir);
}

} // namespace
