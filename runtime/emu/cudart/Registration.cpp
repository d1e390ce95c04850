//===- Registration.cpp - fatbin and module registration ------------------===//
//
// The registration ABI the host code of clang and nvcc calls from static
// constructors and destructors (__cudaRegisterFatBinary,
// __cudaRegisterFunction, __cudaRegisterVar, ...); decoding a module's
// fatbin and loading its PTX into the core on first use, with the reasons a
// program cannot run (no PTX, -fgpu-rdc); and the lookups from a kernel's
// host stub or a variable's shadow to what the core loaded.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"
#include "warpscope/Fatbin/Fatbin.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>

#include <cstring>
#include <fstream>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace {

std::string programName() {
  return program_invocation_short_name && *program_invocation_short_name
             ? program_invocation_short_name
             : "program";
}

std::string moduleName(const ModuleRec &R) {
  std::string N = programName() + ":fatbin" + std::to_string(R.Index);
  if (!R.KernelNames.empty())
    N += ":" + R.KernelNames.front();
  return N;
}

/// True when the ELF file that contains Addr has a section named Name
/// (clang's new offload driver emits llvm_offload_entries for -fgpu-rdc).
bool objectHasSection(const void *Addr, const char *Name) {
  Dl_info Info{};
  std::string Path = "/proc/self/exe";
  if (dladdr(Addr, &Info) && Info.dli_fname && *Info.dli_fname)
    Path = Info.dli_fname;
  std::ifstream F(Path, std::ios::binary);
  if (!F)
    return false;
  std::vector<char> Buf((std::istreambuf_iterator<char>(F)),
                        std::istreambuf_iterator<char>());
  if (Buf.size() < sizeof(Elf64_Ehdr) || memcmp(Buf.data(), ELFMAG, SELFMAG) ||
      Buf[EI_CLASS] != ELFCLASS64)
    return false;
  Elf64_Ehdr Eh;
  memcpy(&Eh, Buf.data(), sizeof(Eh));
  if (Eh.e_shentsize != sizeof(Elf64_Shdr) || Eh.e_shoff > Buf.size() ||
      uint64_t(Eh.e_shnum) * sizeof(Elf64_Shdr) > Buf.size() - Eh.e_shoff ||
      Eh.e_shstrndx >= Eh.e_shnum)
    return false;
  auto Sh = [&](unsigned I) {
    Elf64_Shdr H;
    memcpy(&H, Buf.data() + Eh.e_shoff + I * sizeof(Elf64_Shdr), sizeof(H));
    return H;
  };
  Elf64_Shdr Str = Sh(Eh.e_shstrndx);
  if (Str.sh_offset > Buf.size() || Str.sh_size > Buf.size() - Str.sh_offset)
    return false;
  size_t NameLen = strlen(Name);
  for (unsigned I = 0; I < Eh.e_shnum; ++I) {
    Elf64_Shdr H = Sh(I);
    if (H.sh_name + NameLen + 1 > Str.sh_size)
      continue;
    const char *N = Buf.data() + Str.sh_offset + H.sh_name;
    if (!memcmp(N, Name, NameLen + 1))
      return true;
  }
  return false;
}

/// Decodes the fatbin and loads its PTX into the core, once.
cudaError_t ensureLoaded(ModuleRec &R) {
  if (R.LoadTried)
    return R.LoadError;
  R.LoadTried = true;
  const std::string Name = moduleName(R);
  auto Fail = [&](cudaError_t E, const std::string &Msg) {
    emuError(Msg);
    R.LoadError = E;
    return E;
  };
  fatbin::Wrapper W;
  std::string Err;
  if (!fatbin::readWrapper(R.WrapperPtr, W, Err))
    return Fail(cudaErrorInvalidKernelImage, Name + ": corrupt fatbin: " + Err);
  if (W.Version == 2)
    return Fail(
        cudaErrorNotSupported,
        Name + " was built with relocatable device code (-fgpu-rdc / "
               "nvcc -rdc), which the emulator does not support; "
               "rebuild without -fgpu-rdc and with "
               "--cuda-include-ptx=all (warpscope config --cflags has it)");
  uint64_t Size = fatbin::containerSize(W.Data);
  if (Size == 0)
    return Fail(cudaErrorInvalidKernelImage,
                Name + ": corrupt fatbin: bad container header");
  fatbin::PtxResult P = fatbin::extractPtx(W.Data, Size, 90);
  if (P.Status == fatbin::PtxStatus::Corrupt)
    return Fail(cudaErrorInvalidKernelImage,
                Name + ": corrupt fatbin: " + P.Error);
  if (P.Status == fatbin::PtxStatus::NoPtx) {
    if (objectHasSection(R.WrapperPtr, "llvm_offload_entries"))
      return Fail(
          cudaErrorNotSupported,
          Name + " has no PTX: it was built with -fgpu-rdc "
                 "(relocatable device code), which the emulator does "
                 "not support; rebuild without -fgpu-rdc and with "
                 "--cuda-include-ptx=all (warpscope config --cflags has it)");
    std::string Archs;
    for (uint32_t A : P.ElfArchs)
      Archs += (Archs.empty() ? "sm_" : ", sm_") + std::to_string(A);
    if (Archs.empty())
      Archs = "none";
    return Fail(cudaErrorNoKernelImageForDevice,
                Name + " has no PTX (only cubins for " + Archs +
                    "); rebuild with --cuda-include-ptx=all (warpscope config "
                    "--cflags has it)");
  }
  R.PtxArch = P.Arch;
  R.Ptx = P.Ptx;
  std::unique_ptr<Module> M = loadPtx(P.Ptx, Name, Err);
  if (!M)
    return Fail(cudaErrorInvalidPtx,
                Err.empty() ? Name + ": PTX rejected" : Err);
  R.M = std::move(M);
  return cudaSuccess;
}

ModuleRec *moduleOf(void **Handle) {
  auto *R = reinterpret_cast<ModuleRec *>(Handle);
  for (auto &M : S().Modules)
    if (M.get() == R)
      return R;
  return nullptr;
}

} // namespace

namespace warpscope::emu::cudart {

cudaError_t findKernel(const void *Func, FuncRec *&F, const KernelInfo *&K) {
  auto It = S().Funcs.find(Func);
  if (It == S().Funcs.end())
    return cudaErrorInvalidDeviceFunction;
  F = &It->second;
  if (cudaError_t E = ensureLoaded(*F->Mod))
    return E;
  K = F->Mod->M->findKernel(F->Name);
  if (!K) {
    emuError("kernel " + F->Name + " is registered but not in the PTX of " +
             moduleName(*F->Mod));
    return cudaErrorInvalidDeviceFunction;
  }
  return cudaSuccess;
}

cudaError_t findSymbol(const void *Symbol, const GlobalInfo *&G) {
  auto It = S().Vars.find(Symbol);
  if (It == S().Vars.end())
    return cudaErrorInvalidSymbol;
  if (cudaError_t E = ensureLoaded(*It->second.Mod))
    return E;
  G = It->second.Mod->M->findGlobal(It->second.Name);
  if (!G || !G->Address)
    return cudaErrorInvalidSymbol;
  return cudaSuccess;
}

} // namespace warpscope::emu::cudart

//===-- registration ABI --------------------------------------------------===//

WS_EXPORT void **__cudaRegisterFatBinary(void *FatCubin) {
  State &St = S();
  Lock L(St.Mu);
  auto R = std::make_unique<ModuleRec>();
  R->Index = St.NextModuleIndex++;
  R->WrapperPtr = FatCubin;
  void **H = reinterpret_cast<void **>(R.get());
  St.Modules.push_back(std::move(R));
  return H;
}

WS_EXPORT void __cudaRegisterFatBinaryEnd(void **Handle) { (void)Handle; }

WS_EXPORT void __cudaUnregisterFatBinary(void **Handle) {
  State &St = S();
  Lock L(St.Mu);
  ModuleRec *R = moduleOf(Handle);
  if (!R)
    return;
  syncPoint();
  writeTruth(*R);
  R->Unregistered = true;
  // The host stubs and shadow variables may go away with the code that
  // registered them (dlclose); forget them so a later registration that
  // reuses the addresses cannot resolve to this module.
  for (auto It = St.Funcs.begin(); It != St.Funcs.end();)
    It = It->second.Mod == R ? St.Funcs.erase(It) : std::next(It);
  for (auto It = St.Vars.begin(); It != St.Vars.end();)
    It = It->second.Mod == R ? St.Vars.erase(It) : std::next(It);
}

WS_EXPORT void __cudaRegisterFunction(void **Handle, const char *HostFun,
                                      char *DeviceFun, const char *DeviceName,
                                      int ThreadLimit, uint3 *Tid, uint3 *Bid,
                                      dim3 *BDim, dim3 *GDim, int *WSize) {
  (void)DeviceFun, (void)ThreadLimit, (void)Tid, (void)Bid, (void)BDim,
      (void)GDim, (void)WSize;
  State &St = S();
  Lock L(St.Mu);
  ModuleRec *R = moduleOf(Handle);
  if (!R || !DeviceName)
    return;
  R->KernelNames.push_back(DeviceName);
  FuncRec &F = St.Funcs[HostFun];
  F.Mod = R;
  F.Name = DeviceName;
}

WS_EXPORT void __cudaRegisterVar(void **Handle, char *HostVar,
                                 char *DeviceAddress, const char *DeviceName,
                                 int Ext, size_t Size, int Constant,
                                 int Global) {
  (void)DeviceAddress, (void)Ext, (void)Global;
  State &St = S();
  Lock L(St.Mu);
  ModuleRec *R = moduleOf(Handle);
  if (!R || !DeviceName)
    return;
  VarRec &V = St.Vars[HostVar];
  V.Mod = R;
  V.Name = DeviceName;
  V.Size = Size;
  V.Constant = Constant != 0;
}

WS_EXPORT void __cudaRegisterManagedVar(void **Handle, void **HostVarPtrAddress,
                                        char *DeviceAddress,
                                        const char *DeviceName, int Ext,
                                        size_t Size, int Constant, int Global) {
  (void)Handle, (void)HostVarPtrAddress, (void)DeviceAddress, (void)Ext,
      (void)Size, (void)Constant, (void)Global;
  emuError(std::string("__managed__ variable ") +
           (DeviceName ? DeviceName : "?") +
           " is not supported by the emulator");
  Lock L(S().Mu);
  setErr(cudaErrorNotSupported);
}

WS_EXPORT char __cudaInitModule(void **Handle) {
  Lock L(S().Mu);
  ModuleRec *R = moduleOf(Handle);
  return R && ensureLoaded(*R) == cudaSuccess;
}
