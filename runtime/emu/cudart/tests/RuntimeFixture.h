//===- RuntimeFixture.h - the stand-in cudart's test fixture ----*- C++ -*-===//
//
// Shared by the runtime's test files: clang's registration ABI, a fake
// module (two kernels, a __device__ and a __constant__ variable) and the
// Runtime fixture that registers it against the fake core.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CUDART_TESTS_RUNTIMEFIXTURE_H
#define WARPSCOPE_EMU_CUDART_TESTS_RUNTIMEFIXTURE_H

#include "FakeCore.h"
#include "Runtime.h"
#include "TestUtil.h"
#include "warpscope/ABI/KernelResources.h"

// cuda_runtime.h brings make_cudaExtent and friends (driver_functions.h is
// not meant to be included directly).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

// Registration ABI as clang's host code declares it.
extern "C" {
void **__cudaRegisterFatBinary(void *FatCubin);
void __cudaRegisterFatBinaryEnd(void **Handle);
void __cudaUnregisterFatBinary(void **Handle);
void __cudaRegisterFunction(void **Handle, const char *HostFun, char *DeviceFun,
                            const char *DeviceName, int ThreadLimit, uint3 *Tid,
                            uint3 *Bid, dim3 *BDim, dim3 *GDim, int *WSize);
void __cudaRegisterVar(void **Handle, char *HostVar, char *DeviceAddress,
                       const char *DeviceName, int Ext, size_t Size,
                       int Constant, int Global);
unsigned __cudaPushCallConfiguration(dim3 GridDim, dim3 BlockDim,
                                     size_t SharedMem, void *Stream);
cudaError_t __cudaPopCallConfiguration(dim3 *GridDim, dim3 *BlockDim,
                                       size_t *SharedMem, void *Stream);
}

using namespace warpscope;
using namespace warpscope::emu;

// Functions.cpp: the hook the host runtime finds with dlsym.
extern "C" int __warpscope_emu_kernel_resources(const void *Func,
                                                KernelResources *Out);
using emutest::buildFatbin;
using emutest::FatbinWrapper;
using emutest::TestEntry;

namespace {

const char *FakePtx = R"(
.version 8.8
.target sm_90
.address_size 64
.visible .global .align 4 .b8 dv[16];
.visible .const .align 4 .f32 cscale;
.visible .entry _Z4testPfic(
.param .u64 .ptr .align 1 _Z4testPfic_param_0,
.param .u32 _Z4testPfic_param_1,
.param .u8 _Z4testPfic_param_2
)
{
ret;
}
.visible .entry kern_fail(
)
{
ret;
}
)";

// Host-side stand-ins for the stub functions and shadow variables.
void hostStubTest() {}
void hostStubFail() {}
void hostStubUnregistered() {}
char shadowDv[16];
float shadowScale;

class Runtime : public ::testing::Test {
protected:
  std::vector<uint8_t> Fatbin;
  FatbinWrapper W;
  void **Handle = nullptr;

  void SetUp() override {
    cudart::resetStateForTesting();
    fake::launches().clear();
    fake::loadedModules().clear();
    fake::allocations().clear();
    setenv("WARPSCOPE_EMU_TRUTH", "0", 1);
    // No ptxas unless a test brings its own: attributes fall back to the
    // core's figures and nothing is spawned.
    setenv("WARPSCOPE_PTXAS", "/nonexistent/ws-no-ptxas", 1);
    setenv("XDG_CACHE_HOME", "/nonexistent/ws-no-cache", 1);
  }
  void TearDown() override { cudart::resetStateForTesting(); }

  void registerModule(const std::string &Ptx, int Version = 1,
                      uint16_t Kind = 1) {
    TestEntry E;
    E.Kind = Kind;
    E.Payload = Ptx;
    Fatbin = buildFatbin({E});
    W.Version = Version;
    W.Data = Fatbin.data();
    Handle = __cudaRegisterFatBinary(&W);
    __cudaRegisterFunction(Handle, (const char *)&hostStubTest,
                           (char *)"_Z4testPfic", "_Z4testPfic", -1, nullptr,
                           nullptr, nullptr, nullptr, nullptr);
    __cudaRegisterFunction(Handle, (const char *)&hostStubFail,
                           (char *)"kern_fail", "kern_fail", -1, nullptr,
                           nullptr, nullptr, nullptr, nullptr);
    __cudaRegisterVar(Handle, shadowDv, (char *)"dv", "dv", 0, 16, 0, 0);
    __cudaRegisterVar(Handle, (char *)&shadowScale, (char *)"cscale", "cscale",
                      0, 4, 1, 0);
    __cudaRegisterFatBinaryEnd(Handle);
  }

  cudaError_t launchTest(dim3 G, dim3 B, float *P, int N, char C) {
    EXPECT_EQ(__cudaPushCallConfiguration(G, B, 0, nullptr), 0u);
    dim3 G2, B2;
    size_t Shm;
    cudaStream_t St;
    EXPECT_EQ(__cudaPopCallConfiguration(&G2, &B2, &Shm, &St), cudaSuccess);
    void *Args[] = {&P, &N, &C};
    return cudaLaunchKernel((const void *)&hostStubTest, G2, B2, Args, Shm, St);
  }
};

} // namespace

#endif // WARPSCOPE_EMU_CUDART_TESTS_RUNTIMEFIXTURE_H
