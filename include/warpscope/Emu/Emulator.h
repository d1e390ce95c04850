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
  /// Every global/generic access must fall in a registered allocation (see
  /// registerAllocation) or the launch's own memory, else the launch fails
  /// with LaunchFault::IllegalAddress. The stand-in cudart always sets it;
  /// a core user passing unregistered host memory leaves it off (then only
  /// addresses below 4096 and just past shared/local memory fail).
  /// Misaligned accesses fail either way (LaunchFault::MisalignedAddress).
  bool CheckAddresses = false;
  /// Registers per thread of the machine code (ptxas), for the timing
  /// model's occupancy; 0: unknown (registers do not limit it).
  uint32_t RegistersPerThread = 0;
  /// Shared memory per block the timing model places blocks by, when not
  /// the kernel's own (a what-if, WhatIf.h); -1: the kernel's.
  int64_t ModelSharedBytes = -1;
  /// When ptxas spilled (`ptxas -v`: bytes of spill stores and loads, not
  /// where): the register cap the timing model places the spill code for
  /// (docs/timing-model.md, "Register spills"); 0: no spill code. A what-if
  /// (WhatIf.h, maxregs) may raise it, then RegistersPerThread is what the
  /// kernel needs under it.
  uint32_t SpillCap = 0;
  uint64_t PtxasSpillStoreBytes = 0, PtxasSpillLoadBytes = 0;
  /// The cap is a what-if's, not ptxas's.
  bool SpillCapChanged = false;
};

/// The modeled samples at one PTX instruction (pcsamples-*.json, schema
/// warpscope-pcsampling/3 with granularity "ptx").
struct ModeledPcSamples {
  std::string Function; ///< mangled
  /// Index among the function's program instructions (probe instructions
  /// left out), as the PTX listing (warpscope/PTX/PtxListing.h) numbers them.
  uint32_t PtxIndex = 0;
  std::string File; ///< empty: no .loc
  uint32_t Line = 0;
  uint64_t Samples = 0;
  /// Full stall names (ABI/PcSampling.h), not-issued twins included.
  std::vector<std::pair<std::string, uint64_t>> Stalls;
  /// With WARPSCOPE_EMU_STALL_CYCLES: the model's exact stall cycles
  /// (timing::StallCycles), named like Stalls, and their sum over the
  /// reasons that are not not-issued twins.
  std::vector<std::pair<std::string, double>> StallCycles;
  double Cycles = 0;
};

/// What a failed launch amounts to on a GPU, so the stand-in cudart can
/// return the error a GPU would (docs/emulator.md, "Errors").
enum class LaunchFault : uint8_t {
  None,           ///< refused before it ran (bad configuration, no kernel)
  Failure,        ///< cudaErrorLaunchFailure: trap, deadlock, unsupported...
  IllegalAddress, ///< cudaErrorIllegalAddress: an access outside memory
  /// cudaErrorMisalignedAddress: a load, store or atomic at an address that
  /// is not a multiple of its size (a vector's whole size)
  MisalignedAddress,
  Assert, ///< cudaErrorAssert: a device assertion failed
  /// Stopped by requestInterrupt (a signal), not by the program: every warp
  /// stopped at a branch it had executed, so the counts and the ground truth
  /// hold exactly the part that ran.
  Interrupted,
};

/// Asks every running launch to stop (the caller got Signal, e.g. SIGINT):
/// no new block starts, and each worker stops at its next watchdog look (a
/// few thousand branches), its launch failing with LaunchFault::Interrupted.
/// Async-signal-safe; it stays set for the rest of the process.
void requestInterrupt(int Signal);
/// The signal given to requestInterrupt, 0 when none was.
int interruptSignal();

/// A loaded PTX module: decoded once, launched many times.
class Module {
public:
  virtual ~Module() = default;
  virtual const std::vector<KernelInfo> &kernels() const = 0;
  virtual const std::vector<GlobalInfo> &globals() const = 0;
  virtual const KernelInfo *findKernel(const std::string &Name) const = 0;
  virtual const GlobalInfo *findGlobal(const std::string &Name) const = 0;

  /// Runs a kernel to completion. On failure returns false and sets Error
  /// to one line naming kernel, thread, instruction and PTX/source line,
  /// and *Fault (when given) to the kind of failure (Interrupted: how many
  /// blocks finished before requestInterrupt stopped it).
  virtual bool launch(const std::string &Kernel, const LaunchParams &P,
                      std::string &Error, LaunchFault *Fault = nullptr) = 0;

  /// Exact ground truth accumulated over all launches (docs/emulator.md):
  /// writes a JSON document (schema "warpscope-emu/1"). An interrupted
  /// launch is in it, marked, with the counts of the part that ran.
  virtual std::string groundTruthJson() const = 0;
  /// Modeled PC samples (WARPSCOPE_EMU_PC_SAMPLING with WARPSCOPE_EMU_MODEL,
  /// docs/timing-model.md), summed over launches; empty when none.
  virtual std::vector<ModeledPcSamples> modeledSamples() const { return {}; }
  /// The timing model configuration the samples were taken with.
  virtual std::string modelConfigName() const { return ""; }
  /// How the sampled launches treated probe instructions: "free",
  /// "modeled", "mixed" (some each way), or "" when the module has none.
  virtual std::string modelProbes() const { return ""; }
  /// Their sampling period N (2^N cycles); 0 when none were taken.
  virtual unsigned samplingPeriod() const { return 0; }
};

/// Parses PTX text. On failure returns null and sets Error to one line
/// naming the PTX line and what is unsupported.
std::unique_ptr<Module> loadPtx(const std::string &PtxText,
                                const std::string &ModuleName,
                                std::string &Error);

/// Device-side printf (vprintf) output goes here; the stand-in runtime may
/// redirect it. Default: stdout.
void setPrintfSink(void (*Sink)(const char *Text, size_t Len));

/// Allocation table: every global/generic access of a launch must fall
/// inside a registered allocation (or a module variable, or the launch's
/// own shared/local/param windows), else the launch fails with
/// LaunchFault::IllegalAddress and an error naming the access and the
/// nearest allocation. The stand-in cudart registers cudaMalloc'd blocks
/// (and pinned or registered host memory) here; module variables register
/// themselves. Thread-safe.
void registerAllocation(void *Ptr, size_t Size);
void unregisterAllocation(void *Ptr);

/// Device memory as a GPU maps it: the stand-in cudart's device heap
/// registers each range of 2 MiB pages it maps (never unregistered). A
/// global access outside every allocation but inside such a range does not
/// fail the launch, as on a GPU, which faults only outside its mapped
/// pages: it reads or writes those bytes, and the first such access of
/// each instruction is reported on stderr as compute-sanitizer's memcheck
/// reports it. With WARPSCOPE_EMU_MEMCHECK=1 (warpscope run --memcheck)
/// every access outside an allocation fails the launch. Thread-safe.
void registerDeviceMemory(void *Base, size_t Size);

/// Texture and surface objects (docs/emulator.md, "Textures and surfaces").
/// The stand-in cudart describes the image behind a CUDA texture or surface
/// object here and gives the program the handle returned; tex, suld and sust
/// resolve it when they execute. The image memory stays the caller's.
enum class ChannelKind : uint8_t { Unsigned, Signed, Float };
enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };
enum class FilterMode : uint8_t { Point, Linear };

struct ImageDesc {
  void *Data = nullptr; ///< texel (0, 0, 0); sust writes through it
  uint8_t Dims = 1;     ///< 1, 2 or 3
  /// Linear memory (cudaResourceTypeLinear): integer fetches outside the
  /// width return zero, as tex1Dfetch does.
  bool LinearMemory = false;
  uint64_t Width = 0, Height = 1, Depth = 1; ///< texels
  uint64_t Pitch = 0;                        ///< bytes from one row to the next
  uint64_t SlicePitch = 0; ///< bytes from one 2D slice (or layer) to the next
  /// Layered image (1D or 2D layers, tex.a1d/.a2d, suld/sust .a1d/.a2d): the
  /// number of layers, SlicePitch bytes apart; 0 when not layered.
  uint32_t Layers = 0;
  uint8_t Channels = 1;     ///< 1, 2 or 4, all of the same format
  uint8_t ChannelBits = 32; ///< 8, 16 or 32 (Float: 16 or 32)
  ChannelKind Kind = ChannelKind::Float;
  uint32_t texelBytes() const { return Channels * ChannelBits / 8; }
};

struct SamplerDesc {
  AddressMode Address[3] = {AddressMode::Clamp, AddressMode::Clamp,
                            AddressMode::Clamp};
  FilterMode Filter = FilterMode::Point;
  bool NormalizedFloat = false;  ///< cudaReadModeNormalizedFloat
  bool NormalizedCoords = false; ///< coordinates in [0, 1)
  float BorderColor[4] = {0, 0, 0, 0};
};

/// Registers a texture (image + sampler) or a surface (image only) and
/// returns its handle, never 0. False/0 with Error set when the description
/// is invalid. unregisterImage forgets a handle (false if unknown).
/// Thread-safe.
uint64_t registerTexture(const ImageDesc &Image, const SamplerDesc &Sampler,
                         std::string &Error);
uint64_t registerSurface(const ImageDesc &Image, std::string &Error);
bool unregisterImage(uint64_t Handle);

} // namespace warpscope::emu

#endif // WARPSCOPE_EMU_EMULATOR_H
