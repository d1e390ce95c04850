//===- RuntimeTest.cpp - the stand-in CUDA runtime over a fake core -------===//
#include "RuntimeFixture.h"

namespace {

TEST_F(Runtime, RegisterAndLaunchPacksArguments) {
  registerModule(FakePtx);
  float *P = reinterpret_cast<float *>(0x1234560);
  ASSERT_EQ(launchTest(dim3(3, 2, 1), dim3(64, 1, 1), P, 77, 'z'), cudaSuccess);
  ASSERT_EQ(fake::launches().size(), 1u);
  const fake::LaunchRecord &R = fake::launches()[0];
  EXPECT_EQ(R.Kernel, "_Z4testPfic");
  EXPECT_EQ(R.Params.Grid.X, 3u);
  EXPECT_EQ(R.Params.Grid.Y, 2u);
  EXPECT_EQ(R.Params.Block.X, 64u);
  ASSERT_EQ(R.ArgBytes.size(), 3u);
  float *GotP;
  memcpy(&GotP, R.ArgBytes[0].data(), 8);
  EXPECT_EQ(GotP, P);
  int GotN;
  memcpy(&GotN, R.ArgBytes[1].data(), 4);
  EXPECT_EQ(GotN, 77);
  EXPECT_EQ(R.ArgBytes[2][0], 'z');
  // Module named by program, fatbin index and first kernel.
  ASSERT_EQ(fake::loadedModules().size(), 1u);
  EXPECT_NE(fake::loadedModules()[0].find(":fatbin0:_Z4testPfic"),
            std::string::npos)
      << fake::loadedModules()[0];
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(Runtime, PrintfSinkFlushedAtSync) {
  registerModule(FakePtx);
  testing::internal::CaptureStdout();
  ASSERT_EQ(launchTest(dim3(1), dim3(32), nullptr, 1, 'a'), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::string Out = testing::internal::GetCapturedStdout();
  EXPECT_NE(Out.find("fake-launch _Z4testPfic grid=1,1,1 block=32,1,1"),
            std::string::npos)
      << Out;
}

TEST_F(Runtime, PackArgsFollowsParamAlignment) {
  KernelInfo K;
  K.Name = "k";
  K.Params = {{"a", 1, 1}, {"b", 8, 8}, {"c", 12, 4}, {"d", 2, 2}};
  uint8_t A = 7;
  uint64_t B = 0x1122334455667788ull;
  uint8_t C[12];
  for (int I = 0; I < 12; ++I)
    C[I] = uint8_t(I);
  uint16_t D = 0xBEEF;
  void *Args[] = {&A, &B, C, &D};
  cudart::PackedArgs P;
  std::string Err;
  ASSERT_TRUE(cudart::packArgs(K, Args, P, Err)) << Err;
  EXPECT_EQ(P.Offsets, (std::vector<size_t>{0, 8, 16, 28}));
  EXPECT_EQ(P.Buffer.size(), 30u);
  EXPECT_EQ(*static_cast<uint8_t *>(P.Ptrs[0]), 7);
  uint64_t GotB;
  memcpy(&GotB, P.Ptrs[1], 8);
  EXPECT_EQ(GotB, B);
  EXPECT_EQ(memcmp(P.Ptrs[2], C, 12), 0);
  uint16_t GotD;
  memcpy(&GotD, P.Ptrs[3], 2);
  EXPECT_EQ(GotD, 0xBEEF);

  EXPECT_FALSE(cudart::packArgs(K, nullptr, P, Err));
  void *Bad[] = {&A, nullptr, C, &D};
  EXPECT_FALSE(cudart::packArgs(K, Bad, P, Err));
  EXPECT_NE(Err.find("argument 1"), std::string::npos) << Err;
  KernelInfo Empty;
  EXPECT_TRUE(cudart::packArgs(Empty, nullptr, P, Err));
  EXPECT_TRUE(P.Ptrs.empty());
}

TEST_F(Runtime, Symbols) {
  registerModule(FakePtx);
  int In[4] = {1, 2, 3, 4}, Out[4] = {};
  ASSERT_EQ(cudaMemcpyToSymbol(shadowDv, In, sizeof(In)), cudaSuccess);
  ASSERT_EQ(cudaMemcpyFromSymbol(Out, shadowDv, sizeof(Out)), cudaSuccess);
  EXPECT_EQ(memcmp(In, Out, sizeof(In)), 0);
  int Two = 0;
  ASSERT_EQ(cudaMemcpyFromSymbol(&Two, shadowDv, 4, 4), cudaSuccess);
  EXPECT_EQ(Two, 2);
  void *Addr = nullptr;
  ASSERT_EQ(cudaGetSymbolAddress(&Addr, shadowDv), cudaSuccess);
  EXPECT_EQ(static_cast<int *>(Addr)[3], 4);
  size_t Size = 0;
  ASSERT_EQ(cudaGetSymbolSize(&Size, shadowDv), cudaSuccess);
  EXPECT_EQ(Size, 16u);
  float S = 2.5f, SOut = 0;
  ASSERT_EQ(cudaMemcpyToSymbolAsync(&shadowScale, &S, 4, 0,
                                    cudaMemcpyHostToDevice, nullptr),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpyFromSymbolAsync(&SOut, &shadowScale, 4, 0,
                                      cudaMemcpyDeviceToHost, nullptr),
            cudaSuccess);
  EXPECT_EQ(SOut, 2.5f);
  // Out of bounds, wrong direction, unknown symbol.
  EXPECT_EQ(cudaMemcpyToSymbol(shadowDv, In, 8, 12), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToSymbol(shadowDv, In, 4, 0, cudaMemcpyDeviceToHost),
            cudaErrorInvalidMemcpyDirection);
  int NotRegistered;
  EXPECT_EQ(cudaMemcpyToSymbol(&NotRegistered, In, 4), cudaErrorInvalidSymbol);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidSymbol);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(Runtime, LaunchFailureIsSticky) {
  registerModule(FakePtx);
  testing::internal::CaptureStderr();
  cudaError_t E = cudaLaunchKernel((const void *)&hostStubFail, dim3(1),
                                   dim3(1), nullptr, 0, nullptr);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(E, cudaErrorLaunchFailure);
  EXPECT_EQ(Err, "warpscope-emu: error: fake: kernel kern_fail failed: thread "
                 "(0,0,0) block (0,0,0): illegal address\n");
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  void *P = nullptr;
  EXPECT_EQ(cudaMalloc(&P, 16), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure); // sticky
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorLaunchFailure);
  // Not even a reset clears it: the process must be restarted.
  EXPECT_EQ(cudaDeviceReset(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaMalloc(&P, 16), cudaErrorLaunchFailure);
}

TEST_F(Runtime, NonStickyErrors) {
  EXPECT_EQ(cudaSetDevice(3), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidDevice),
               "cudaErrorInvalidDevice");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorLaunchFailure),
               "unspecified launch failure");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorNotSupported),
               "cudaErrorNotSupported");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorTensorMemoryLeak),
               "cudaErrorTensorMemoryLeak");
  EXPECT_STREQ(cudaGetErrorName(static_cast<cudaError_t>(12345)),
               "unrecognized error code");

  registerModule(FakePtx);
  EXPECT_EQ(launchTest(dim3(1), dim3(2048), nullptr, 0, 0),
            cudaErrorInvalidConfiguration);
  EXPECT_EQ(launchTest(dim3(0), dim3(32), nullptr, 0, 0),
            cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(launchTest(dim3(1), dim3(32), nullptr, 0, 0), cudaSuccess);
  EXPECT_EQ(cudaLaunchKernel((const void *)&hostStubUnregistered, dim3(1),
                             dim3(1), nullptr, 0, nullptr),
            cudaErrorInvalidDeviceFunction);
  void *Args[3] = {};
  int Dummy;
  Args[0] = Args[1] = Args[2] = &Dummy;
  EXPECT_EQ(cudaLaunchKernel((const void *)&hostStubTest, dim3(1), dim3(1),
                             Args, 64 * 1024, nullptr),
            cudaErrorInvalidValue); // > 48 KiB dynamic shared without opt-in
  EXPECT_EQ(cudaFuncSetAttribute((const void *)&hostStubTest,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 100 * 1024),
            cudaSuccess);
  EXPECT_EQ(cudaLaunchKernel((const void *)&hostStubTest, dim3(1), dim3(1),
                             Args, 64 * 1024, nullptr),
            cudaSuccess);
  dim3 G, B;
  size_t Shm;
  cudaStream_t St;
  EXPECT_EQ(__cudaPopCallConfiguration(&G, &B, &Shm, &St),
            cudaErrorMissingConfiguration);
  cudaGetLastError();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST_F(Runtime, NoPtxModule) {
  TestEntry E;
  E.Kind = 2; // ELF only
  E.Payload = "\x7f"
              "ELF";
  Fatbin = buildFatbin({E});
  W.Data = Fatbin.data();
  Handle = __cudaRegisterFatBinary(&W);
  __cudaRegisterFunction(Handle, (const char *)&hostStubTest,
                         (char *)"_Z4testPfic", "_Z4testPfic", -1, nullptr,
                         nullptr, nullptr, nullptr, nullptr);
  testing::internal::CaptureStderr();
  EXPECT_EQ(cudaLaunchKernel((const void *)&hostStubTest, dim3(1), dim3(1),
                             nullptr, 0, nullptr),
            cudaErrorNoKernelImageForDevice);
  // Printed once, not per call.
  EXPECT_EQ(cudaLaunchKernel((const void *)&hostStubTest, dim3(1), dim3(1),
                             nullptr, 0, nullptr),
            cudaErrorNoKernelImageForDevice);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("warpscope-emu: error: "), std::string::npos);
  // Printed with the kernel's name demangled, then its symbol.
  EXPECT_NE(Err.find(":fatbin0:test(float*, int, char) [_Z4testPfic] has no "
                     "PTX (only cubins for "
                     "sm_90); rebuild with --cuda-include-ptx=all (warpscope "
                     "config --cflags has it)\n"),
            std::string::npos)
      << Err;
  EXPECT_EQ(std::count(Err.begin(), Err.end(), '\n'), 1);
  // Not sticky.
  EXPECT_EQ(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(Runtime, RdcAndCorruptAndRejectedModules) {
  registerModule(FakePtx, /*Version=*/2);
  testing::internal::CaptureStderr();
  EXPECT_EQ(launchTest(dim3(1), dim3(1), nullptr, 0, 0), cudaErrorNotSupported);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("-fgpu-rdc"), std::string::npos) << Err;

  cudart::resetStateForTesting();
  registerModule(FakePtx);
  emutest::put<uint32_t>(Fatbin, 16 + 4, 8); // entry header size < 64
  testing::internal::CaptureStderr();
  EXPECT_EQ(launchTest(dim3(1), dim3(1), nullptr, 0, 0),
            cudaErrorInvalidKernelImage);
  Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("corrupt fatbin"), std::string::npos) << Err;

  cudart::resetStateForTesting();
  registerModule(std::string(FakePtx) + "// FAKE_REJECT\n");
  testing::internal::CaptureStderr();
  EXPECT_EQ(launchTest(dim3(1), dim3(1), nullptr, 0, 0), cudaErrorInvalidPtx);
  Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("warpscope-emu: error: "), std::string::npos) << Err;
  EXPECT_NE(Err.find("fake: unsupported PTX"), std::string::npos) << Err;
}

TEST_F(Runtime, Memory) {
  void *P = nullptr, *Q = nullptr;
  size_t Free0, Total;
  ASSERT_EQ(cudaMemGetInfo(&Free0, &Total), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&P, 1000), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&Q, 1), cudaSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % 256, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Q) % 256, 0u);
  // The core's allocation table sees exactly the requested extents.
  EXPECT_EQ(fake::allocations().at(reinterpret_cast<uintptr_t>(P)), 1000u);
  EXPECT_EQ(fake::allocations().at(reinterpret_cast<uintptr_t>(Q)), 1u);
  size_t Free1;
  ASSERT_EQ(cudaMemGetInfo(&Free1, &Total), cudaSuccess);
  EXPECT_EQ(Free0 - Free1, 1001u);
  std::vector<char> H(1000), H2(1000);
  for (int I = 0; I < 1000; ++I)
    H[I] = char(I);
  EXPECT_EQ(cudaMemcpy(P, H.data(), 1000, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(H2.data(), P, 1000, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(H, H2);
  EXPECT_EQ(cudaMemcpyAsync(H2.data(), P, 10, cudaMemcpyDeviceToHost, nullptr),
            cudaSuccess);
  EXPECT_EQ(cudaMemcpy(P, H.data(), 10, static_cast<cudaMemcpyKind>(9)),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemcpy(nullptr, H.data(), 10, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(P, 0xAB, 1000), cudaSuccess);
  EXPECT_EQ(static_cast<unsigned char *>(P)[999], 0xAB);
  EXPECT_EQ(cudaMemsetAsync(P, 1, 4, nullptr), cudaSuccess);
  EXPECT_EQ(static_cast<unsigned char *>(P)[3], 1);
  EXPECT_EQ(cudaFree(P), cudaSuccess);
  EXPECT_EQ(cudaFree(P), cudaErrorInvalidValue); // double free
  EXPECT_EQ(cudaFree(H.data()), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  EXPECT_EQ(cudaFree(Q), cudaSuccess);
  EXPECT_TRUE(fake::allocations().empty());
  cudaGetLastError();

  void *Z = reinterpret_cast<void *>(1);
  EXPECT_EQ(cudaMalloc(&Z, 0), cudaSuccess);
  EXPECT_EQ(Z, nullptr);

  void *Pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(&Pinned, 100), cudaSuccess);
  cudaPointerAttributes A;
  ASSERT_EQ(cudaPointerGetAttributes(&A, Pinned), cudaSuccess);
  EXPECT_EQ(A.type, cudaMemoryTypeHost);
  void *Dev;
  ASSERT_EQ(cudaHostGetDevicePointer(&Dev, Pinned, 0), cudaSuccess);
  EXPECT_EQ(Dev, Pinned);
  EXPECT_EQ(cudaFreeHost(Pinned), cudaSuccess);
  ASSERT_EQ(cudaHostAlloc(&Pinned, 64, cudaHostAllocMapped), cudaSuccess);
  unsigned Flags = 0;
  EXPECT_EQ(cudaHostGetFlags(&Flags, Pinned), cudaSuccess);
  EXPECT_EQ(Flags, unsigned(cudaHostAllocMapped));
  EXPECT_EQ(cudaFreeHost(Pinned), cudaSuccess);
  EXPECT_TRUE(fake::allocations().empty());
  char Buf[64];
  EXPECT_EQ(cudaHostRegister(Buf, sizeof(Buf), 0), cudaSuccess);
  EXPECT_EQ(fake::allocations().count(reinterpret_cast<uintptr_t>(Buf)), 1u);
  EXPECT_EQ(cudaHostUnregister(Buf), cudaSuccess);
  EXPECT_TRUE(fake::allocations().empty());
}

TEST_F(Runtime, PitchedMemory) {
  void *P = nullptr;
  size_t Pitch = 0;
  ASSERT_EQ(cudaMallocPitch(&P, &Pitch, 100, 5), cudaSuccess);
  EXPECT_GE(Pitch, 100u);
  EXPECT_EQ(Pitch % 512, 0u);
  std::vector<uint8_t> H(100 * 5), Back(100 * 5, 0);
  for (size_t I = 0; I < H.size(); ++I)
    H[I] = uint8_t(I * 7);
  ASSERT_EQ(cudaMemset2D(P, Pitch, 0xEE, Pitch, 5), cudaSuccess);
  ASSERT_EQ(
      cudaMemcpy2D(P, Pitch, H.data(), 100, 100, 5, cudaMemcpyHostToDevice),
      cudaSuccess);
  auto *D = static_cast<uint8_t *>(P);
  EXPECT_EQ(D[Pitch * 2 + 3], H[200 + 3]);
  EXPECT_EQ(D[Pitch * 2 + 100], 0xEE); // padding untouched
  ASSERT_EQ(cudaMemcpy2DAsync(Back.data(), 100, P, Pitch, 100, 5,
                              cudaMemcpyDeviceToHost, nullptr),
            cudaSuccess);
  EXPECT_EQ(H, Back);
  ASSERT_EQ(cudaMemset2DAsync(P, Pitch, 0, 10, 5, nullptr), cudaSuccess);
  EXPECT_EQ(D[Pitch * 4 + 9], 0);
  EXPECT_EQ(D[Pitch * 4 + 10], H[400 + 10]);
  EXPECT_EQ(cudaMemcpy2D(P, 50, H.data(), 100, 100, 5, cudaMemcpyHostToDevice),
            cudaErrorInvalidPitchValue);
  EXPECT_EQ(cudaMemset2D(P, 50, 0, 100, 1), cudaErrorInvalidPitchValue);
  EXPECT_EQ(cudaFree(P), cudaSuccess);
  cudaGetLastError();
}

TEST_F(Runtime, StreamsAndEvents) {
  cudaStream_t S1, S2;
  ASSERT_EQ(cudaStreamCreate(&S1), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&S2, cudaStreamNonBlocking), cudaSuccess);
  unsigned Flags;
  ASSERT_EQ(cudaStreamGetFlags(S2, &Flags), cudaSuccess);
  EXPECT_EQ(Flags, unsigned(cudaStreamNonBlocking));
  cudaStream_t S3;
  ASSERT_EQ(cudaStreamCreateWithPriority(&S3, 0, -3), cudaSuccess);
  int Prio;
  ASSERT_EQ(cudaStreamGetPriority(S3, &Prio), cudaSuccess);
  EXPECT_EQ(Prio, -3);
  cudaEvent_t A, B, NoTiming;
  ASSERT_EQ(cudaEventCreate(&A), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&B), cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&NoTiming, cudaEventDisableTiming),
            cudaSuccess);
  float Ms = -1;
  EXPECT_EQ(cudaEventElapsedTime(&Ms, A, B), cudaErrorInvalidResourceHandle);
  ASSERT_EQ(cudaEventRecord(A, S1), cudaSuccess);
  usleep(2000);
  ASSERT_EQ(cudaEventRecord(B, S1), cudaSuccess);
  ASSERT_EQ(cudaEventSynchronize(B), cudaSuccess);
  ASSERT_EQ(cudaEventQuery(B), cudaSuccess);
  ASSERT_EQ(cudaEventElapsedTime(&Ms, A, B), cudaSuccess);
  EXPECT_GE(Ms, 1.5f);
  EXPECT_LT(Ms, 5000.f);
  ASSERT_EQ(cudaEventRecord(NoTiming, nullptr), cudaSuccess);
  EXPECT_EQ(cudaEventElapsedTime(&Ms, A, NoTiming),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaStreamWaitEvent(S2, A, 0), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(S1), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(S2), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(cudaStreamPerThread), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(S1), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(S1), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaStreamDestroy(S1), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventDestroy(A), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(A), cudaErrorInvalidResourceHandle);
  void *P;
  EXPECT_EQ(cudaMemcpyAsync(&P, &P, 8, cudaMemcpyHostToHost, S1),
            cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  EXPECT_EQ(cudaEventDestroy(B), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(NoTiming), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(S2), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(S3), cudaSuccess);
}

TEST_F(Runtime, DeviceQueries) {
  int N = 0;
  ASSERT_EQ(cudaGetDeviceCount(&N), cudaSuccess);
  EXPECT_EQ(N, 1);
  int D = -1;
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  ASSERT_EQ(cudaGetDevice(&D), cudaSuccess);
  EXPECT_EQ(D, 0);
  cudaDeviceProp P;
  ASSERT_EQ(cudaGetDeviceProperties(&P, 0), cudaSuccess);
  EXPECT_STREQ(P.name, "WarpScope Emulated H100");
  EXPECT_EQ(P.major, 9);
  EXPECT_EQ(P.minor, 0);
  EXPECT_EQ(P.multiProcessorCount, 132);
  EXPECT_EQ(P.warpSize, 32);
  EXPECT_EQ(P.maxThreadsPerBlock, 1024);
  EXPECT_EQ(P.sharedMemPerBlock, 48u * 1024);
  EXPECT_EQ(P.regsPerBlock, 65536);
  EXPECT_EQ(cudaGetDeviceProperties(&P, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  int V = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&V, cudaDevAttrMultiProcessorCount, 0),
            cudaSuccess);
  EXPECT_EQ(V, 132);
  ASSERT_EQ(cudaDeviceGetAttribute(&V, cudaDevAttrComputeCapabilityMajor, 0),
            cudaSuccess);
  EXPECT_EQ(V, 9);
  ASSERT_EQ(
      cudaDeviceGetAttribute(&V, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0),
      cudaSuccess);
  EXPECT_EQ(size_t(V), P.sharedMemPerBlockOptin);
  ASSERT_EQ(cudaDriverGetVersion(&V), cudaSuccess);
  EXPECT_EQ(V, 13000);
  ASSERT_EQ(cudaRuntimeGetVersion(&V), cudaSuccess);
  EXPECT_EQ(V, 13000);
  size_t L = 0;
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 22), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetLimit(&L, cudaLimitPrintfFifoSize), cudaSuccess);
  EXPECT_EQ(L, size_t(1) << 22);
  EXPECT_EQ(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), cudaSuccess);
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(Runtime, GroundTruthWrittenAtUnregister) {
  char Tmpl[] = "/tmp/emu-cudart-test-XXXXXX";
  ASSERT_NE(mkdtemp(Tmpl), nullptr);
  std::string Dir = std::string(Tmpl) + "/nested/out";
  setenv("WARPSCOPE_OUT", Dir.c_str(), 1);
  setenv("WARPSCOPE_EMU_TRUTH", "1", 1);
  registerModule(FakePtx);
  ASSERT_EQ(launchTest(dim3(1), dim3(1), nullptr, 0, 0), cudaSuccess);
  __cudaUnregisterFatBinary(Handle);
  std::string File = Dir + "/emu-" + std::to_string(getpid()) + "-0.json";
  auto B = emutest::readFile(File);
  std::string Json(B.begin(), B.end());
  EXPECT_NE(Json.find("warpscope-emu/1"), std::string::npos) << File;
  EXPECT_NE(Json.find("\"launches\": 1"), std::string::npos) << Json;
  unlink(File.c_str());
  // After unregistration the module's kernels and variables are gone.
  EXPECT_EQ(launchTest(dim3(1), dim3(1), nullptr, 0, 0),
            cudaErrorInvalidDeviceFunction);
  int V = 0;
  EXPECT_EQ(cudaMemcpyToSymbol(shadowDv, &V, 4), cudaErrorInvalidSymbol);
  cudaGetLastError();

  // Disabled: nothing written.
  cudart::resetStateForTesting();
  setenv("WARPSCOPE_EMU_TRUTH", "0", 1);
  registerModule(FakePtx);
  ASSERT_EQ(launchTest(dim3(1), dim3(1), nullptr, 0, 0), cudaSuccess);
  __cudaUnregisterFatBinary(Handle);
  struct stat St;
  EXPECT_NE(stat(File.c_str(), &St), 0);
  unsetenv("WARPSCOPE_OUT");
  rmdir(Dir.c_str());
}

TEST_F(Runtime, ThreeDimensionalMemory) {
  cudaExtent Ext = make_cudaExtent(10, 3, 4); // bytes, rows, slices
  cudaPitchedPtr D;
  ASSERT_EQ(cudaMalloc3D(&D, Ext), cudaSuccess);
  EXPECT_EQ(D.pitch % 512, 0u);
  EXPECT_EQ(D.xsize, 10u);
  EXPECT_EQ(D.ysize, 3u);
  ASSERT_EQ(cudaMemset3D(D, 0x11, Ext), cudaSuccess);
  std::vector<uint8_t> H(10 * 3 * 4), Back(H.size(), 0);
  for (size_t I = 0; I < H.size(); ++I)
    H[I] = uint8_t(I);
  cudaMemcpy3DParms P;
  memset(&P, 0, sizeof(P));
  P.srcPtr = make_cudaPitchedPtr(H.data(), 10, 10, 3);
  P.dstPtr = D;
  P.extent = make_cudaExtent(8, 3, 4); // leave 2 bytes per row untouched
  P.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(cudaMemcpy3D(&P), cudaSuccess);
  auto *Dev = static_cast<uint8_t *>(D.ptr);
  EXPECT_EQ(Dev[(2 * 3 + 1) * D.pitch + 5], H[(2 * 3 + 1) * 10 + 5]);
  EXPECT_EQ(Dev[(2 * 3 + 1) * D.pitch + 9], 0x11);
  memset(&P, 0, sizeof(P));
  P.srcPtr = D;
  P.srcPos = make_cudaPos(0, 1, 2); // start at row 1 of slice 2
  P.dstPtr = make_cudaPitchedPtr(Back.data(), 10, 10, 3);
  P.extent = make_cudaExtent(8, 2, 1);
  P.kind = cudaMemcpyDefault;
  ASSERT_EQ(cudaMemcpy3DAsync(&P, nullptr), cudaSuccess);
  EXPECT_EQ(Back[0], H[(2 * 3 + 1) * 10]);
  EXPECT_EQ(Back[10 + 7], H[(2 * 3 + 2) * 10 + 7]);
  P.srcArray = reinterpret_cast<cudaArray_t>(&P); // not an array
  EXPECT_EQ(cudaMemcpy3D(&P), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  EXPECT_EQ(cudaFree(D.ptr), cudaSuccess);
}

TEST_F(Runtime, ParamInfoAndStreamIds) {
  registerModule(FakePtx);
  size_t Off = 99, Size = 99;
  ASSERT_EQ(cudaFuncGetParamInfo((const void *)&hostStubTest, 1, &Off, &Size),
            cudaSuccess);
  EXPECT_EQ(Off, 8u);
  EXPECT_EQ(Size, 4u);
  ASSERT_EQ(cudaFuncGetParamInfo((const void *)&hostStubTest, 2, &Off, &Size),
            cudaSuccess);
  EXPECT_EQ(Off, 12u);
  EXPECT_EQ(Size, 1u);
  EXPECT_EQ(cudaFuncGetParamInfo((const void *)&hostStubTest, 3, &Off, &Size),
            cudaErrorInvalidValue);
  cudaGetLastError();
  cudaStream_t S1;
  ASSERT_EQ(cudaStreamCreate(&S1), cudaSuccess);
  unsigned long long Id1 = 0, Id0 = 1;
  int Dev = -1;
  ASSERT_EQ(cudaStreamGetId(S1, &Id1), cudaSuccess);
  ASSERT_EQ(cudaStreamGetId(nullptr, &Id0), cudaSuccess);
  EXPECT_NE(Id0, Id1);
  ASSERT_EQ(cudaStreamGetDevice(S1, &Dev), cudaSuccess);
  EXPECT_EQ(Dev, 0);
  EXPECT_EQ(cudaStreamDestroy(S1), cudaSuccess);
}

} // namespace
