//===- RuntimeResourcesTest.cpp - function attributes and occupancy -------===//
//
// cudaFuncGetAttributes and the occupancy API of the stand-in cudart: from
// ptxas -v where one is found, from the core's figures otherwise.
//
//===----------------------------------------------------------------------===//
#include "RuntimeFixture.h"

namespace {
// Its own name: gtest refuses two fixtures named Runtime from two files.
class RuntimeResources : public Runtime {};

TEST_F(RuntimeResources, FuncAttributesAndOccupancy) {
  registerModule(FakePtx);
  cudaFuncAttributes A;
  ASSERT_EQ(cudaFuncGetAttributes(&A, (const void *)&hostStubTest),
            cudaSuccess);
  EXPECT_EQ(A.numRegs, 32); // no ptxas: the fake core's value
  EXPECT_EQ(A.maxThreadsPerBlock, 1024);
  EXPECT_EQ(A.binaryVersion, 90);
  int Blocks = 0;
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &Blocks, (const void *)&hostStubTest, 256, 0),
            cudaSuccess);
  EXPECT_EQ(Blocks, 8); // 32 regs x 256 threads: register-limited
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &Blocks, (const void *)&hostStubTest, 32, 0),
            cudaSuccess);
  EXPECT_EQ(Blocks, 32); // block-count limited
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &Blocks, (const void *)&hostStubTest, 64, 100 * 1024),
            cudaSuccess);
  EXPECT_EQ(Blocks, 2); // shared-memory limited
  const char *Name = nullptr;
  ASSERT_EQ(cudaFuncGetName(&Name, (const void *)&hostStubTest), cudaSuccess);
  EXPECT_STREQ(Name, "_Z4testPfic");
  EXPECT_EQ(cudaFuncSetCacheConfig((const void *)&hostStubTest,
                                   cudaFuncCachePreferShared),
            cudaSuccess);
  EXPECT_EQ(cudaFuncGetAttributes(&A, (const void *)&hostStubUnregistered),
            cudaErrorInvalidDeviceFunction);
  cudaGetLastError();
}

TEST_F(RuntimeResources, NoPtxasMeansUnknownResources) {
  registerModule(FakePtx);
  KernelResources R;
  ASSERT_EQ(__warpscope_emu_kernel_resources((const void *)&hostStubTest, &R),
            0);
  EXPECT_EQ(R.Known, 0u);
  EXPECT_NE(std::string(R.Why).find("WARPSCOPE_PTXAS=/nonexistent/ws-no-ptxas"),
            std::string::npos)
      << R.Why;
  EXPECT_EQ(
      __warpscope_emu_kernel_resources((const void *)&hostStubUnregistered, &R),
      int(cudaErrorInvalidDeviceFunction));
}

TEST_F(RuntimeResources, AttributesAndOccupancyFromPtxas) {
  // A stand-in ptxas reporting 40 registers, 2 KB shared, spills.
  std::string Dir = "/tmp/ws-cudart-ptxas-" + std::to_string(getpid());
  ASSERT_EQ(system(("mkdir -p " + Dir).c_str()), 0);
  {
    std::ofstream F(Dir + "/ptxas");
    F << "#!/bin/sh\ncat >&2 <<'EOF'\n"
         "ptxas info    : Compiling entry function '_Z4testPfic' for 'sm_90'\n"
         "ptxas info    : Function properties for _Z4testPfic\n"
         "    24 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
         "ptxas info    : Used 40 registers, used 1 barriers, 24 bytes "
         "cumulative stack size, 2048 bytes smem\nEOF\n";
  }
  ASSERT_EQ(chmod((Dir + "/ptxas").c_str(), 0755), 0);
  setenv("WARPSCOPE_PTXAS", (Dir + "/ptxas").c_str(), 1);
  setenv("XDG_CACHE_HOME", (Dir + "/cache").c_str(), 1);
  // Text of its own: the process-wide cache must not know it.
  registerModule(std::string(FakePtx) + "// ptxas test\n");
  cudaFuncAttributes A;
  ASSERT_EQ(cudaFuncGetAttributes(&A, (const void *)&hostStubTest),
            cudaSuccess);
  EXPECT_EQ(A.numRegs, 40);
  EXPECT_EQ(A.sharedSizeBytes, 2048u);
  EXPECT_EQ(A.localSizeBytes, 24u);
  int Blocks = 0;
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &Blocks, (const void *)&hostStubTest, 256, 0),
            cudaSuccess);
  // 40 x 32 = 1280 registers a warp: 12 warps per 16K sub-partition, 48
  // per SM, 6 blocks of 8 warps (shared memory would allow 76).
  EXPECT_EQ(Blocks, 6);
  KernelResources R;
  ASSERT_EQ(__warpscope_emu_kernel_resources((const void *)&hostStubTest, &R),
            0);
  EXPECT_EQ(R.Known, 1u);
  EXPECT_EQ(R.Registers, 40u);
  EXPECT_EQ(R.SpillStoreBytes, 8u);
  EXPECT_EQ(R.SpillLoadBytes, 4u);
  EXPECT_EQ(R.StaticSharedBytes, 2048u);
  // kern_fail is in the PTX but not in ptxas's report: unknown, with why.
  ASSERT_EQ(__warpscope_emu_kernel_resources((const void *)&hostStubFail, &R),
            0);
  EXPECT_EQ(R.Known, 0u);
  EXPECT_STREQ(R.Why, "ptxas did not report kernel kern_fail");
  ASSERT_EQ(system(("rm -rf " + Dir).c_str()), 0);
}

} // namespace
