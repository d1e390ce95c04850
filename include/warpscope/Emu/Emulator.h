//===- Emulator.h - PTX emulator core, as the stand-in cudart sees it -----===//
//
// The split: the core (ptx/ and exec/) parses PTX and runs kernels; the
// stand-in libcudart.so.13 (cudart/) decodes fatbins, owns the CUDA API
// surface and calls only what is declared here. Device memory is host
// memory: a device pointer is a host pointer, so global loads and stores
// dereference directly. No LLVM here (this lives inside user programs).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_EMULATOR_H
#define WARPSCOPE_EMU_EMULATOR_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace warpscope::emu {

struct Dim3 {
  uint32_t X = 1, Y = 1, Z = 1;
};

/// One kernel parameter as declared in PTX (.param .align A .b8 name[S] or
/// .param .u64 name ...): byte size and alignment, in declaration order.
struct ParamInfo {
  std::string Name;
  uint32_t Size = 0;
  uint32_t Align = 1;
};

struct KernelInfo {
  std::string Name; ///< mangled entry name
  std::vector<ParamInfo> Params;
  uint32_t StaticSharedBytes = 0;
  uint32_t LocalBytesPerThread = 0;
  uint32_t NumRegisters = 0;
  uint32_t MaxThreadsPerBlock = 1024; ///< .maxntid product when declared
};

/// Module-scope variable (.global or .const), storage owned by the module.
struct GlobalInfo {
  std::string Name;
  size_t Size = 0;
  void *Address = nullptr; ///< zero- or initializer-filled at load time
};

struct LaunchParams {
  Dim3 Grid, Block;
  uint32_t DynamicSharedBytes = 0;
  /// Args[i] points to the value of parameter i, Size bytes (CUDA's
  /// void **kernelParams convention).
  void **Args = nullptr;
};

/// A loaded PTX module: decoded once, launched many times.
class Module {
public:
  virtual ~Module() = default;
  virtual const std::vector<KernelInfo> &kernels() const = 0;
  virtual const std::vector<GlobalInfo> &globals() const = 0;
  virtual const KernelInfo *findKernel(const std::string &Name) const = 0;
  virtual const GlobalInfo *findGlobal(const std::string &Name) const = 0;

  /// Runs a kernel to completion. On failure returns false and sets Error
  /// to one line naming kernel, thread, instruction and PTX/source line.
  virtual bool launch(const std::string &Kernel, const LaunchParams &P,
                      std::string &Error) = 0;

  /// Exact ground truth accumulated over all launches (docs/emulator.md):
  /// writes a JSON document (schema "warpscope-emu/1").
  virtual std::string groundTruthJson() const = 0;
};

/// Parses PTX text. On failure returns null and sets Error to one line
/// naming the PTX line and what is unsupported.
std::unique_ptr<Module> loadPtx(const std::string &PtxText,
                                const std::string &ModuleName,
                                std::string &Error);

/// Device-side printf (vprintf) output goes here; the stand-in runtime may
/// redirect it. Default: stdout.
void setPrintfSink(void (*Sink)(const char *Text, size_t Len));

/// Allocation table for checked global accesses: with the environment
/// variable WARPSCOPE_EMU_CHECK=1, every global/generic access of a launch
/// must fall inside a registered allocation (or a module variable, or the
/// launch's own shared/local/param windows), else the launch fails with an
/// error naming the access. The stand-in cudart registers cudaMalloc'd
/// blocks here. Thread-safe.
void registerAllocation(void *Ptr, size_t Size);
void unregisterAllocation(void *Ptr);

} // namespace warpscope::emu

#endif // WARPSCOPE_EMU_EMULATOR_H
