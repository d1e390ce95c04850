//===- Device.cpp - the emulated device -----------------------------------===//
//
// The one device, "WarpScope Emulated H100" (sm_90): its properties and
// attributes, device selection and flags, limits and cache configuration,
// versions, synchronization and reset.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace warpscope::emu::cudart {

const cudaDeviceProp &deviceProp() {
  static const cudaDeviceProp P = [] {
    cudaDeviceProp D;
    memset(&D, 0, sizeof(D));
    snprintf(D.name, sizeof(D.name), "WarpScope Emulated H100");
    memcpy(D.uuid.bytes, "WarpScopeEmuH100", 16);
    D.totalGlobalMem = TotalMem;
    D.sharedMemPerBlock = SharedPerBlock;
    D.regsPerBlock = RegsPerSM;
    D.warpSize = 32;
    D.memPitch = 2147483647;
    D.maxThreadsPerBlock = 1024;
    D.maxThreadsDim[0] = 1024;
    D.maxThreadsDim[1] = 1024;
    D.maxThreadsDim[2] = 64;
    D.maxGridSize[0] = 2147483647;
    D.maxGridSize[1] = 65535;
    D.maxGridSize[2] = 65535;
    D.totalConstMem = 65536;
    D.major = 9;
    D.minor = 0;
    D.textureAlignment = 512;
    D.texturePitchAlignment = 32;
    D.multiProcessorCount = SmCount;
    D.canMapHostMemory = 1;
    D.maxTexture1D = 131072;
    D.maxTexture2D[0] = 131072;
    D.maxTexture2D[1] = 65536;
    D.surfaceAlignment = 512;
    D.concurrentKernels = 1;
    D.pciBusID = 1;
    D.asyncEngineCount = 2;
    D.unifiedAddressing = 1;
    D.memoryBusWidth = 5120;
    D.l2CacheSize = 50 * 1024 * 1024;
    D.persistingL2CacheMaxSize = 32 * 1024 * 1024;
    D.maxThreadsPerMultiProcessor = MaxThreadsPerSM;
    D.streamPrioritiesSupported = 1;
    D.globalL1CacheSupported = 1;
    D.localL1CacheSupported = 1;
    D.sharedMemPerMultiprocessor = SharedPerSM;
    D.regsPerMultiprocessor = RegsPerSM;
    D.managedMemory = 1;
    D.hostNativeAtomicSupported = 1;
    D.pageableMemoryAccess = 1;
    D.concurrentManagedAccess = 1;
    D.computePreemptionSupported = 1;
    D.canUseHostPointerForRegisteredMem = 1;
    D.cooperativeLaunch = 0;
    D.sharedMemPerBlockOptin = SharedPerBlockOptin;
    D.directManagedMemAccessFromHost = 1;
    D.maxBlocksPerMultiProcessor = MaxBlocksPerSM;
    D.accessPolicyMaxWindowSize = 134213632;
    D.reservedSharedMemPerBlock = 1024;
    D.hostRegisterSupported = 1;
    D.memoryPoolsSupported = 0;
    D.clusterLaunch = 0;
    D.deviceNumaId = -1;
    D.hostNumaId = -1;
    return D;
  }();
  return P;
}

} // namespace warpscope::emu::cudart

namespace {

int deviceAttr(cudaDeviceAttr A, bool &Known) {
  const cudaDeviceProp &P = deviceProp();
  Known = true;
  switch (A) {
  case cudaDevAttrMaxThreadsPerBlock:
    return P.maxThreadsPerBlock;
  case cudaDevAttrMaxBlockDimX:
    return P.maxThreadsDim[0];
  case cudaDevAttrMaxBlockDimY:
    return P.maxThreadsDim[1];
  case cudaDevAttrMaxBlockDimZ:
    return P.maxThreadsDim[2];
  case cudaDevAttrMaxGridDimX:
    return P.maxGridSize[0];
  case cudaDevAttrMaxGridDimY:
    return P.maxGridSize[1];
  case cudaDevAttrMaxGridDimZ:
    return P.maxGridSize[2];
  case cudaDevAttrMaxSharedMemoryPerBlock:
    return int(P.sharedMemPerBlock);
  case cudaDevAttrTotalConstantMemory:
    return int(P.totalConstMem);
  case cudaDevAttrWarpSize:
    return P.warpSize;
  case cudaDevAttrMaxPitch:
    return int(P.memPitch);
  case cudaDevAttrMaxRegistersPerBlock:
    return P.regsPerBlock;
  case cudaDevAttrClockRate:
    return 1980000;
  case cudaDevAttrMemoryClockRate:
    return 2619000;
  case cudaDevAttrTextureAlignment:
    return int(P.textureAlignment);
  case cudaDevAttrGpuOverlap:
    return 1;
  case cudaDevAttrMultiProcessorCount:
    return P.multiProcessorCount;
  case cudaDevAttrKernelExecTimeout:
    return 0;
  case cudaDevAttrIntegrated:
    return 0;
  case cudaDevAttrCanMapHostMemory:
    return 1;
  case cudaDevAttrComputeMode:
    return 0;
  case cudaDevAttrConcurrentKernels:
    return 1;
  case cudaDevAttrEccEnabled:
    return 0;
  case cudaDevAttrPciBusId:
    return P.pciBusID;
  case cudaDevAttrPciDeviceId:
    return 0;
  case cudaDevAttrPciDomainId:
    return 0;
  case cudaDevAttrTccDriver:
    return 0;
  case cudaDevAttrGlobalMemoryBusWidth:
    return P.memoryBusWidth;
  case cudaDevAttrL2CacheSize:
    return P.l2CacheSize;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    return MaxThreadsPerSM;
  case cudaDevAttrAsyncEngineCount:
    return P.asyncEngineCount;
  case cudaDevAttrUnifiedAddressing:
    return 1;
  case cudaDevAttrTexturePitchAlignment:
    return int(P.texturePitchAlignment);
  case cudaDevAttrSurfaceAlignment:
    return int(P.surfaceAlignment);
  case cudaDevAttrComputeCapabilityMajor:
    return P.major;
  case cudaDevAttrComputeCapabilityMinor:
    return P.minor;
  case cudaDevAttrStreamPrioritiesSupported:
    return 1;
  case cudaDevAttrGlobalL1CacheSupported:
    return 1;
  case cudaDevAttrLocalL1CacheSupported:
    return 1;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    return int(SharedPerSM);
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    return RegsPerSM;
  case cudaDevAttrManagedMemory:
    return 1;
  case cudaDevAttrIsMultiGpuBoard:
    return 0;
  case cudaDevAttrMultiGpuBoardGroupID:
    return 0;
  case cudaDevAttrHostNativeAtomicSupported:
    return 1;
  case cudaDevAttrSingleToDoublePrecisionPerfRatio:
    return 2;
  case cudaDevAttrPageableMemoryAccess:
    return 1;
  case cudaDevAttrConcurrentManagedAccess:
    return 1;
  case cudaDevAttrComputePreemptionSupported:
    return 1;
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
    return 1;
  case cudaDevAttrCooperativeLaunch:
    return 0;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    return int(SharedPerBlockOptin);
  case cudaDevAttrCanFlushRemoteWrites:
    return 0;
  case cudaDevAttrHostRegisterSupported:
    return 1;
  case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    return 1;
  case cudaDevAttrDirectManagedMemAccessFromHost:
    return 1;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    return MaxBlocksPerSM;
  case cudaDevAttrMaxPersistingL2CacheSize:
    return P.persistingL2CacheMaxSize;
  case cudaDevAttrMaxAccessPolicyWindowSize:
    return P.accessPolicyMaxWindowSize;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    return 1024;
  case cudaDevAttrMemoryPoolsSupported:
    return 0;
  case cudaDevAttrClusterLaunch:
    return 0;
  case cudaDevAttrNumaConfig:
    return 0;
  case cudaDevAttrNumaId:
    return -1;
  case cudaDevAttrHostNumaId:
    return -1;
  case cudaDevAttrMaxTexture1DWidth:
    return P.maxTexture1D;
  case cudaDevAttrMaxTexture2DWidth:
    return P.maxTexture2D[0];
  case cudaDevAttrMaxTexture2DHeight:
    return P.maxTexture2D[1];
  default:
    Known = int(A) > 0 && int(A) <= 150;
    return 0;
  }
}

} // namespace

WS_EXPORT cudaError_t cudaGetDeviceCount(int *Count) {
  Lock L(S().Mu);
  if (!Count)
    return setErr(cudaErrorInvalidValue);
  *Count = 1;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaSetDevice(int Device) {
  Lock L(S().Mu);
  if (Device != 0)
    return setErr(cudaErrorInvalidDevice);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetDevice(int *Device) {
  Lock L(S().Mu);
  if (!Device)
    return setErr(cudaErrorInvalidValue);
  *Device = 0;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaInitDevice(int Device, unsigned int DeviceFlags,
                                     unsigned int Flags) {
  (void)DeviceFlags, (void)Flags;
  return cudaSetDevice(Device);
}

WS_EXPORT cudaError_t cudaChooseDevice(int *Device,
                                       const cudaDeviceProp *Prop) {
  Lock L(S().Mu);
  if (!Device || !Prop)
    return setErr(cudaErrorInvalidValue);
  *Device = 0;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int Flags) {
  Lock L(S().Mu);
  if (Flags & ~0x1Fu)
    return setErr(cudaErrorInvalidValue);
  S().DeviceFlags = Flags;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *Flags) {
  Lock L(S().Mu);
  if (!Flags)
    return setErr(cudaErrorInvalidValue);
  *Flags = S().DeviceFlags | cudaDeviceMapHost;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop,
                                              int Device) {
  Lock L(S().Mu);
  if (!Prop)
    return setErr(cudaErrorInvalidValue);
  if (Device != 0)
    return setErr(cudaErrorInvalidDevice);
  *Prop = deviceProp();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attr,
                                             int Device) {
  Lock L(S().Mu);
  if (!Value)
    return setErr(cudaErrorInvalidValue);
  if (Device != 0)
    return setErr(cudaErrorInvalidDevice);
  bool Known;
  int V = deviceAttr(Attr, Known);
  if (!Known)
    return setErr(cudaErrorInvalidValue);
  *Value = V;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDriverGetVersion(int *V) {
  if (!V) {
    Lock L(S().Mu);
    return setErr(cudaErrorInvalidValue);
  }
  *V = 13000;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaRuntimeGetVersion(int *V) {
  if (!V) {
    Lock L(S().Mu);
    return setErr(cudaErrorInvalidValue);
  }
  *V = 13000;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSynchronize(void) {
  Lock L(S().Mu);
  syncPoint();
  CHECK_STICKY();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceReset(void) {
  State &St = S();
  Lock L(St.Mu);
  syncPoint();
  // A fault is not undone by a reset: CUDA documents that the process must
  // be terminated and relaunched to use CUDA again.
  CHECK_STICKY();
  for (auto &A : St.DeviceAllocs) {
    unregisterAllocation(reinterpret_cast<void *>(A.first));
    deviceRelease(reinterpret_cast<void *>(A.first), A.second);
  }
  St.DeviceAllocs.clear();
  St.DeviceBytes = 0;
  St.Streams.clear();
  St.Events.clear();
  St.Last = St.Sticky = cudaSuccess;
  St.DeviceFlags = 0;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSetLimit(cudaLimit Limit, size_t Value) {
  Lock L(S().Mu);
  if (unsigned(Limit) >= 7)
    return setErr(cudaErrorUnsupportedLimit);
  S().Limits[Limit] = Value;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetLimit(size_t *Value, cudaLimit Limit) {
  Lock L(S().Mu);
  if (!Value)
    return setErr(cudaErrorInvalidValue);
  if (unsigned(Limit) >= 7)
    return setErr(cudaErrorUnsupportedLimit);
  *Value = S().Limits[Limit];
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache Config) {
  Lock L(S().Mu);
  S().CacheConfig = Config;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *Config) {
  Lock L(S().Mu);
  if (!Config)
    return setErr(cudaErrorInvalidValue);
  *Config = S().CacheConfig;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
WS_EXPORT cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
