//===- PtxHistograms.cpp - Per-block PTX histograms from the fatbin -------===//

#include "PtxHistograms.h"
#include "warpscope/Fatbin/Fatbin.h"
#include "warpscope/PTX/BlockHistograms.h"
#include "warpscope/PTX/PlainHistograms.h"
#include "warpscope/PTX/PtxListing.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include <map>
#include <set>

using namespace llvm;
using namespace warpscope;
namespace fb = warpscope::emu::fatbin;

namespace {

/// The bytes of the fatbin container __cudaRegisterFatBinary's wrapper
/// points to, or empty.
StringRef embeddedFatbin(const Module &M) {
  const GlobalVariable *Wrapper = M.getNamedGlobal("__cuda_fatbin_wrapper");
  if (!Wrapper || !Wrapper->hasInitializer())
    return {};
  const auto *Init = dyn_cast<ConstantStruct>(Wrapper->getInitializer());
  if (!Init || Init->getNumOperands() < 3)
    return {};
  const auto *Data =
      dyn_cast<GlobalVariable>(Init->getOperand(2)->stripPointerCasts());
  if (!Data || !Data->hasInitializer())
    return {};
  if (const auto *CDS =
          dyn_cast<ConstantDataSequential>(Data->getInitializer()))
    return CDS->getRawDataValues();
  return {};
}

unsigned smNumber(StringRef Target) {
  unsigned Sm = 0;
  if (Target.consume_front("sm_"))
    Target.consumeInteger(10, Sm);
  return Sm;
}

} // namespace

namespace {

/// Stores H, attributed by first counter words, in F's records: the
/// instrumented build's histograms, or with Plain the plain build's.
void store(FunctionRecord &F, const ptx::FunctionHistograms &H, bool Plain) {
  std::map<int64_t, BlockRecord *> ByWord;
  for (BlockRecord &B : F.Blocks)
    ByWord[B.Counter] = &B;
  auto &Unattributed = Plain ? F.PlainPtxUnattributed : F.PtxUnattributed;
  auto &Edges = Plain ? F.PlainPtxEdges : F.PtxEdges;
  auto &Parts = Plain ? F.PlainPtxSwitchParts : F.PtxSwitchParts;
  for (auto &[Word, Hist] : H.Blocks) {
    auto B = ByWord.find(int64_t(Word));
    auto &To = B == ByWord.end() ? Unattributed
               : Plain           ? B->second->PlainPtx
                                 : B->second->Ptx;
    for (const auto &[Opcode, Count] : Hist)
      To[Opcode] += Count;
  }
  for (auto &[Edge, Hist] : H.Edges) {
    auto From = ByWord.find(int64_t(Edge.From));
    auto Other = ByWord.find(int64_t(Edge.Other));
    if (From == ByWord.end() || Other == ByWord.end()) {
      for (const auto &[Opcode, Count] : Hist)
        Unattributed[Opcode] += Count;
      continue;
    }
    Edges.push_back({From->second->Id, Other->second->Id, Edge.Toward,
                     Edge.OtherReconverges, Edge.SelfReconverges, Hist});
  }
  for (auto &[Part, Hist] : H.SwitchParts) {
    PtxSwitchPartRecord R;
    bool Known = ByWord.count(int64_t(Part.From));
    for (uint64_t W : Part.Reaches) {
      Known &= ByWord.count(int64_t(W)) > 0;
      if (Known)
        R.Reaches.push_back(ByWord[int64_t(W)]->Id);
    }
    if (!Known) {
      for (const auto &[Opcode, Count] : Hist)
        Unattributed[Opcode] += Count;
      continue;
    }
    R.From = ByWord[int64_t(Part.From)]->Id;
    R.Ptx = Hist;
    Parts.push_back(std::move(R));
  }
  for (const auto &[Opcode, Count] : H.Unattributed)
    Unattributed[Opcode] += Count;
}

/// The words of F's blocks that end in a switch.
std::set<uint64_t> switchWords(const FunctionRecord &F) {
  std::set<uint64_t> Switches;
  for (const BranchRecord &Br : F.Branches)
    if (Br.Successors.size() > 2 && Br.Block < F.Blocks.size() &&
        F.Blocks[Br.Block].Counter >= 0)
      Switches.insert(uint64_t(F.Blocks[Br.Block].Counter));
  return Switches;
}

/// Attributes the plain build's PTX (DB.PlainPtx) through the instrumented
/// build's functions, sets each function's PlainPtxStatus and clears the
/// text. Returns the module's plain status.
std::string addPlainHistograms(const ptx::Module &Instrumented,
                               ProgramDatabase &DB) {
  ptx::Module PM;
  std::string Error;
  bool Read = ptx::parse(DB.PlainPtx, PM, Error);
  DB.PlainPtx.clear();
  if (!Read)
    return "the plain build's PTX could not be read (" + Error + ")";
  std::map<std::string, const ptx::Function *> Plain, Ours;
  for (const ptx::Function &F : PM.Functions)
    Plain[F.Name] = &F;
  for (const ptx::Function &F : Instrumented.Functions)
    Ours[F.Name] = &F;
  for (FunctionRecord &F : DB.Functions) {
    auto I = Ours.find(F.Name);
    if (I == Ours.end())
      continue;
    auto P = Plain.find(F.Name);
    if (P == Plain.end()) {
      F.PlainPtxStatus = "the plain build has no PTX function " + F.Name;
      continue;
    }
    ptx::PlainAttribution A =
        ptx::attributePlain(*I->second, *P->second, switchWords(F));
    if (A.Status == ptx::PlainAttribution::Same)
      F.PlainPtxStatus = "same";
    else if (A.Status == ptx::PlainAttribution::NotMapped)
      F.PlainPtxStatus = A.Why;
    else {
      F.PlainPtxStatus = "mapped";
      store(F, A.Histograms, /*Plain=*/true);
    }
  }
  return "ok";
}

} // namespace

std::string warpscope::addPtxHistograms(const std::string &Ptx,
                                        ProgramDatabase &DB) {
  ptx::Module PM;
  std::string Error;
  if (!ptx::parse(Ptx, PM, Error))
    return "the PTX could not be read (" + Error + ")";
  std::map<std::string, const ptx::Function *> ByName;
  for (const ptx::Function &F : PM.Functions)
    ByName[F.Name] = &F;
  for (FunctionRecord &F : DB.Functions) {
    auto It = ByName.find(F.Name);
    if (It == ByName.end())
      continue; // removed by the code generator (or inlined everywhere)
    ptx::FunctionHistograms H = ptx::attribute(*It->second, switchWords(F));
    store(F, H, /*Plain=*/false);
    F.PtxInstrumentation = H.InstrumentationInstructions;
  }
  DB.PtxArch = PM.Target;
  if (!DB.PlainPtx.empty())
    DB.PlainPtxStatus = addPlainHistograms(PM, DB);
  return "ok";
}

void warpscope::addPtxHistograms(const Module &HostModule,
                                 ProgramDatabase &DB) {
  StringRef Fatbin = embeddedFatbin(HostModule);
  if (Fatbin.empty()) {
    DB.PtxStatus = "no fatbin in the host module (a -fgpu-rdc build?)";
    return;
  }
  fb::Container C;
  std::string Error;
  if (!fb::parseContainer(Fatbin.data(), Fatbin.size(), C, Error)) {
    DB.PtxStatus = "the embedded fatbin is unreadable (" + Error + ")";
    return;
  }
  // The PTX of the database's architecture: the device compile that wrote it.
  const fb::Entry *Chosen = nullptr;
  for (const fb::Entry &E : C.Entries)
    if (E.isPtx() && E.Arch == smNumber(DB.Target))
      Chosen = &E;
  if (!Chosen) {
    DB.PtxStatus = "the fatbin carries no PTX for " + DB.Target +
                   "; build with --cuda-include-ptx=" + DB.Target;
    return;
  }
  std::string Ptx;
  if (!fb::entryPayload(C, *Chosen, Ptx, Error)) {
    DB.PtxStatus = "the fatbin's PTX is unreadable (" + Error + ")";
    return;
  }
  Ptx = Ptx.substr(0, Ptx.find('\0'));
  DB.PtxStatus = addPtxHistograms(Ptx, DB);
}
