//===- HostInstrumentation.cpp - Registration and launch hooks ------------===//

#include "HostInstrumentation.h"
#include "ModuleIdentity.h"
#include "PluginOptions.h"
#include "PtxHistograms.h"
#include "warpscope/ABI/Abi.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace warpscope;

#define DEBUG_TYPE "warpscope-host"

STATISTIC(NumModulesRegistered, "Host modules registered with the runtime");

namespace {

class HostInstrumenter {
public:
  HostInstrumenter(Module &M, const HostInstrumentationOptions &Opts)
      : M(M), Ctx(M.getContext()), Opts(Opts) {}
  bool run();

private:
  Module &M;
  LLVMContext &Ctx;
  const HostInstrumentationOptions &Opts;

  std::string databasePath(StringRef Id) const;
  Constant *stringConstant(StringRef S, StringRef Name, bool NulTerminate);
  Constant *kernelTable(ArrayRef<CallBase *> Registrations, unsigned &Count);
  Function *weakRuntimeFunction(StringRef Name, FunctionType *Ty);
  bool retargetCalls(StringRef From, StringRef To);
};

std::string HostInstrumenter::databasePath(StringRef Id) const {
  if (!Opts.DatabaseIn.empty())
    return Opts.DatabaseIn;
  // This invocation's device compile left the tagged one; without it the
  // device side was compiled by another invocation (or not instrumented).
  std::string Dir = databaseDirectory(Opts.Identity);
  std::string Own = databaseFile(Dir, Id, compileJobTag());
  return sys::fs::exists(Own) ? Own : databaseFile(Dir, Id);
}

Constant *HostInstrumenter::stringConstant(StringRef S, StringRef Name,
                                           bool NulTerminate) {
  Constant *Init = ConstantDataArray::getString(Ctx, S, NulTerminate);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return GV;
}

/// One {stub, name} pair per __cudaRegisterFunction call.
Constant *HostInstrumenter::kernelTable(ArrayRef<CallBase *> Registrations,
                                        unsigned &Count) {
  auto *Ptr = PointerType::getUnqual(Ctx);
  auto *EntryTy = StructType::get(Ptr, Ptr);
  SmallVector<Constant *, 16> Entries;
  for (CallBase *CB : Registrations) {
    auto *Stub = dyn_cast<Constant>(CB->getArgOperand(1));
    auto *Name = dyn_cast<Constant>(CB->getArgOperand(2));
    if (Stub && Name)
      Entries.push_back(ConstantStruct::get(EntryTy, {Stub, Name}));
  }
  Count = Entries.size();
  auto *Ty = ArrayType::get(EntryTy, Entries.size());
  auto *GV = new GlobalVariable(
      M, Ty, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantArray::get(Ty, Entries), "__warpscope_kernels");
  return GV;
}

/// The runtime is referenced weakly, so an instrumented program also runs
/// without it (then nothing is collected) and `warpscope run` can preload it.
Function *HostInstrumenter::weakRuntimeFunction(StringRef Name,
                                                FunctionType *Ty) {
  Function *F = cast<Function>(M.getOrInsertFunction(Name, Ty).getCallee());
  F->setLinkage(GlobalValue::ExternalWeakLinkage);
  return F;
}

/// Makes every call of From go to To (same C signature) when the runtime
/// is loaded, and to From otherwise.
bool HostInstrumenter::retargetCalls(StringRef From, StringRef To) {
  Function *F = M.getFunction(From);
  if (!F)
    return false;
  Function *Wrapper = weakRuntimeFunction(To, F->getFunctionType());
  bool Changed = false;
  for (User *U : make_early_inc_range(F->users()))
    if (auto *CB = dyn_cast<CallBase>(U))
      if (CB->getCalledOperand() == F) {
        IRBuilder<> B(CB);
        Value *Loaded = B.CreateIsNotNull(Wrapper, "ws.rt");
        CB->setCalledOperand(B.CreateSelect(Loaded, Wrapper, F, "ws.callee"));
        Changed = true;
      }
  return Changed;
}

bool HostInstrumenter::run() {
  Function *RegisterEnd = M.getFunction("__cudaRegisterFatBinaryEnd");
  Function *RegisterFunction = M.getFunction("__cudaRegisterFunction");
  CallBase *EndCall = nullptr;
  if (RegisterEnd)
    for (User *U : RegisterEnd->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        EndCall = CB;
  if (!EndCall) {
    LLVM_DEBUG(dbgs() << "warpscope: no __cudaRegisterFatBinaryEnd call: no "
                         "device code to register\n");
    return false; // no device code in this translation unit
  }

  SmallVector<CallBase *, 16> Registrations;
  if (RegisterFunction)
    for (User *U : RegisterFunction->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        Registrations.push_back(CB);

  std::string Id = moduleId(M, Opts.Identity);
  std::string Path = databasePath(Id);
  std::string Database, CountersSymbol = CountersSymbolPrefix + Id;
  uint64_t NumCounters = 0;
  int64_t Replicas = 1, Stride = 0;
  if (auto Buf = MemoryBuffer::getFile(Path)) {
    Database = (*Buf)->getBuffer().str();
    // Read once: a later invocation reusing this pid must not find it.
    if (Opts.DatabaseIn.empty() &&
        Path != databaseFile(databaseDirectory(Opts.Identity), Id))
      sys::fs::remove(Path);
    // One reader for the database: ProgramDatabase::fromJson checks the
    // schema and the counter layout for the host as for every other user.
    Expected<json::Value> V = json::parse(Database);
    Expected<ProgramDatabase> DB = V ? ProgramDatabase::fromJson(*V)
                                     : Expected<ProgramDatabase>(V.takeError());
    if (!DB) {
      Ctx.emitError("warpscope: program database '" + Path +
                    "' is unreadable (" + toString(DB.takeError()) +
                    "); rebuild this file with the plugin");
      return false;
    }
    if (DB->ModuleId != Id) {
      Ctx.emitError("warpscope: program database '" + Path +
                    "' belongs to another module; rebuild this file with "
                    "the plugin");
      return false;
    }
    NumCounters = DB->NumCounters;
    Replicas = int64_t(DB->CounterReplicas);
    Stride = int64_t(DB->ReplicaStride);
    // The plain build's PTX text, when the device compile made it, is read
    // here and never embedded.
    if (Opts.Histograms || !DB->PlainPtx.empty()) {
      if (Opts.Histograms)
        addPtxHistograms(M, *DB);
      if (!DB->PlainPtx.empty()) {
        DB->PlainPtx.clear();
        DB->PlainPtxStatus =
            "not attributed: " + (Opts.Histograms
                                      ? DB->PtxStatus
                                      : "built with -warpscope-histograms=0");
      }
      Database = formatv("{0}", DB->toJson()).str();
    }
  } else {
    // The device side was built without the plugin: launches are still
    // recorded, without counts.
    Database.clear();
  }

  auto *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto *Ptr = PointerType::getUnqual(Ctx);
  Constant *Shadow = ConstantPointerNull::get(Ptr);
  if (NumCounters) {
    // The host key under which the device array is registered; its bytes
    // are never read (zero-initialized, so it lives in .bss).
    auto *Ty = ArrayType::get(I64, Replicas * Stride);
    Shadow = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                                Constant::getNullValue(Ty), CountersSymbol);
  }
  unsigned NumKernels = 0;
  Constant *Kernels = kernelTable(Registrations, NumKernels);
  // Every field by name; type and order come from ModuleDescriptor.def.
  struct {
#define WARPSCOPE_DESCRIPTOR_FIELD(IRKind, CType, Name)                        \
  Constant *Name = nullptr;
#include "warpscope/ABI/ModuleDescriptor.def"
  } F;
  F.AbiVersion = ConstantInt::get(I32, AbiVersion);
  F.NumKernels = ConstantInt::get(I32, NumKernels);
  F.ModuleId = stringConstant(Id, "__warpscope_module_id", true);
  F.CountersSymbol =
      stringConstant(CountersSymbol, "__warpscope_counters_name", true);
  F.NumCounters = ConstantInt::get(I64, NumCounters);
  F.CountersShadow = Shadow;
  F.Database = stringConstant(Database, "__warpscope_database", false);
  F.DatabaseSize = ConstantInt::get(I64, Database.size());
  F.Kernels = Kernels;
  F.CounterReplicas = ConstantInt::get(I32, Replicas);
  F.ReplicaStride = ConstantInt::get(I32, Stride);
  SmallVector<Type *, 16> FieldTypes;
  SmallVector<Constant *, 16> Fields;
#define WARPSCOPE_DESCRIPTOR_FIELD(IRKind, CType, Name)                        \
  assert(F.Name &&F.Name->getType() == IRKind && #Name " not set");            \
  FieldTypes.push_back(IRKind);                                                \
  Fields.push_back(F.Name);
#include "warpscope/ABI/ModuleDescriptor.def"
  auto *DescTy = StructType::get(Ctx, FieldTypes);
  Constant *Desc = ConstantStruct::get(DescTy, Fields);
  auto *DescGV = new GlobalVariable(M, DescTy, /*isConstant=*/true,
                                    GlobalValue::PrivateLinkage, Desc,
                                    "__warpscope_module");

  Function *Register = weakRuntimeFunction(
      RegisterModuleFunction,
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false));
  Instruction *Then = SplitBlockAndInsertIfThen(
      IRBuilder<>(EndCall).CreateIsNotNull(Register, "ws.rt"), EndCall,
      /*Unreachable=*/false);
  IRBuilder<>(Then).CreateCall(Register, {DescGV, EndCall->getArgOperand(0)});
  ++NumModulesRegistered;
  LLVM_DEBUG(dbgs() << "warpscope: registering module " << Id << " ("
                    << NumKernels << " kernels, " << NumCounters
                    << " counters, database " << Database.size()
                    << " bytes)\n");

  retargetCalls("cudaLaunchKernel", LaunchKernelWrapper);
  retargetCalls("cudaLaunchKernel_ptsz", LaunchKernelPtszWrapper);
  retargetCalls("cudaDeviceReset", DeviceResetWrapper);
  return true;
}

} // namespace

HostInstrumentationPass::HostInstrumentationPass(
    HostInstrumentationOptions Opts)
    : Opts(withCommandLine(std::move(Opts))) {}

PreservedAnalyses HostInstrumentationPass::run(Module &M,
                                               ModuleAnalysisManager &) {
  if (M.getTargetTriple().isNVPTX() || M.getTargetTriple().isAMDGPU())
    return PreservedAnalyses::all();
  return HostInstrumenter(M, Opts).run() ? PreservedAnalyses::none()
                                         : PreservedAnalyses::all();
}

#undef DEBUG_TYPE
