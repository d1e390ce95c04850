// Strings a kernel hands the host side: printf's format, its %s arguments
// and argument buffer, and __assertfail's message, file and function. Each
// is read only from memory the kernel may read (a registered allocation, a
// module variable of any space, the launch's shared/local/param memory); a
// bad pointer is one line (cudaErrorIllegalAddress for printf, the failed
// assertion naming the unreadable string), never a host crash or bytes read
// past the memory.
#include "TestUtil.h"

#include <cstdio>

using namespace emutest;

namespace {

const char *DeviceStringPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.extern .func __assertfail(.param .b64 p0, .param .b64 p1, .param .b32 p2, .param .b64 p3, .param .b64 p4);
.global .align 1 .b8 fmt[4] = {37, 115, 10, 0};
.const .align 1 .b8 cmsg[3] = {104, 105, 0};
.visible .entry pr(.param .u64 s, .param .u32 useconst)
{
  .local .align 8 .b8 depot[8];
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [s];
  ld.param.u32 %r2, [useconst];
  setp.ne.u32 %p1, %r2, 0;
  mov.u64 %rd6, cmsg;
  cvta.const.u64 %rd6, %rd6;
  @%p1 mov.u64 %rd1, %rd6;
  mov.u64 %rd2, depot;
  cvta.local.u64 %rd3, %rd2;
  st.local.u64 [%rd2], %rd1;
  mov.u64 %rd4, fmt;
  cvta.global.u64 %rd5, %rd4;
  {
  .param .b64 param0;
  .param .b64 param1;
  .param .b32 retval0;
  st.param.b64 [param0], %rd5;
  st.param.b64 [param1], %rd3;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r1, [retval0];
  }
  ret;
}
.visible .entry pra(.param .u64 f, .param .u64 a)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [f];
  ld.param.u64 %rd2, [a];
  {
  .param .b64 param0;
  .param .b64 param1;
  .param .b32 retval0;
  st.param.b64 [param0], %rd1;
  st.param.b64 [param1], %rd2;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r1, [retval0];
  }
  ret;
}
.visible .entry as(.param .u64 msg, .param .u64 file, .param .u64 func)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [msg];
  ld.param.u64 %rd2, [file];
  ld.param.u64 %rd3, [func];
  {
  .param .b64 param0;
  .param .b64 param1;
  .param .b32 param2;
  .param .b64 param3;
  .param .b64 param4;
  st.param.b64 [param0], %rd1;
  st.param.b64 [param1], %rd2;
  st.param.b32 [param2], 7;
  st.param.b64 [param3], %rd3;
  st.param.b64 [param4], 1;
  call.uni __assertfail, (param0, param1, param2, param3, param4);
  }
  ret;
}
)";

// Host memory registered as device memory for one test.
struct Device {
  explicit Device(const std::string &Bytes) : B(Bytes.begin(), Bytes.end()) {
    registerAllocation(B.data(), B.size());
  }
  ~Device() { unregisterAllocation(B.data()); }
  char *ptr() { return B.data(); }
  std::vector<char> B;
};

struct DeviceStrings : ::testing::Test {
  void SetUp() override {
    std::string E;
    M = loadText(DeviceStringPtx, &E);
    ASSERT_TRUE(M) << E;
    capturePrintf(&Out);
  }
  void TearDown() override { setPrintfSink(nullptr); }
  bool run(const std::string &K, const Args &A, bool Checked = true) {
    Err.clear();
    Out.clear();
    Fault = LaunchFault::None;
    return launch(*M, K, {1, 1, 1}, {1, 1, 1}, A, &Err, 0, Checked, &Fault);
  }
  bool mentions(const std::string &S) const {
    return Err.find(S) != std::string::npos;
  }
  std::unique_ptr<Module> M;
  std::string Err, Out;
  LaunchFault Fault = LaunchFault::None;
};

char *const Wild = reinterpret_cast<char *>(uintptr_t(0x7e5a00000000ull));

// %s from a cudaMalloc'd block, a .const variable (generic address) and
// null; the format is a .global variable and the arguments are in local
// memory.
TEST_F(DeviceStrings, PrintfReadsEverySpace) {
  Device S(std::string("hello", 6));
  EXPECT_TRUE(run("pr", Args().add(S.ptr()).add(0u))) << Err;
  EXPECT_EQ(Out, "hello\n");
  EXPECT_TRUE(run("pr", Args().add((char *)nullptr).add(1u))) << Err;
  EXPECT_EQ(Out, "hi\n");
  EXPECT_TRUE(run("pr", Args().add((char *)nullptr).add(0u))) << Err;
  EXPECT_EQ(Out, "(null)\n");
}

// A %s pointer outside memory, and a string with no NUL before the end of
// its allocation: one line each, nothing printed, no host fault.
TEST_F(DeviceStrings, PrintfBadStringPointer) {
  EXPECT_FALSE(run("pr", Args().add(Wild).add(0u)));
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  EXPECT_TRUE(mentions("'call.uni' at PTX line ")) << Err;
  EXPECT_TRUE(mentions("illegal address: printf's %s argument: 0x7e5a00000000 "
                       "is outside every allocation"))
      << Err;
  EXPECT_TRUE(mentions("(format \"%s\\n\")")) << Err;
  EXPECT_EQ(Err.find('\n'), std::string::npos) << Err;
  EXPECT_EQ(Out, "");
  Device S(std::string("abcd", 4));
  EXPECT_FALSE(run("pr", Args().add(S.ptr()).add(0u)));
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  char Want[160];
  std::snprintf(Want, sizeof Want,
                "the string at %p runs past the end of its memory (4 bytes at "
                "%p) with no terminating NUL",
                (void *)S.ptr(), (void *)S.ptr());
  EXPECT_TRUE(mentions(Want)) << Err;
}

// %.3s reads three bytes, which need not end in a NUL.
TEST_F(DeviceStrings, PrintfPrecisionStopsTheRead) {
  Device F(std::string("%.3s|\n", 7)), S(std::string("abcd", 4));
  char *P = S.ptr();
  Device A(std::string((const char *)&P, sizeof P));
  EXPECT_TRUE(run("pra", Args().add(F.ptr()).add(A.ptr()))) << Err;
  EXPECT_EQ(Out, "abc|\n");
}

// A bad format pointer; a format reading more arguments than its buffer
// holds; no buffer at all.
TEST_F(DeviceStrings, PrintfBadFormatOrArguments) {
  EXPECT_FALSE(run("pra", Args().add(Wild).add((char *)nullptr)));
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  EXPECT_TRUE(mentions("illegal address: printf's format string: "
                       "0x7e5a00000000 is outside every allocation"))
      << Err;
  Device F(std::string("%d %d\n", 7)), A(std::string(4, '\0'));
  EXPECT_FALSE(run("pra", Args().add(F.ptr()).add(A.ptr())));
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  EXPECT_TRUE(mentions("printf format \"%d %d\\n\" reads 8 bytes of arguments "
                       "but the argument buffer at 0x"))
      << Err;
  EXPECT_FALSE(run("pra", Args().add(F.ptr()).add((char *)nullptr)));
  EXPECT_TRUE(mentions("reads 4 bytes of arguments but none were passed"))
      << Err;
  EXPECT_FALSE(run("pra", Args().add(F.ptr()).add(Wild)));
  EXPECT_TRUE(mentions("its argument buffer at 0x7e5a00000000 is outside "
                       "every allocation"))
      << Err;
}

TEST_F(DeviceStrings, AssertNamesMessageFileAndFunction) {
  Device Msg(std::string("x > 0", 6)), File(std::string("/src/k.cu", 10)),
      Fn(std::string("void k(int)", 12));
  EXPECT_FALSE(run("as", Args().add(Msg.ptr()).add(File.ptr()).add(Fn.ptr())));
  EXPECT_EQ(Fault, LaunchFault::Assert);
  EXPECT_TRUE(mentions("device assertion failed: x > 0 at /src/k.cu:7 in "
                       "void k(int)"))
      << Err;
}

// An unreadable string is named in the one line; the launch is still the
// failed assertion.
TEST_F(DeviceStrings, AssertWithBadPointers) {
  Device File(std::string("/src/k.cu", 10)), Unended(std::string("abc", 3));
  EXPECT_FALSE(run("as", Args().add(Wild).add(File.ptr()).add(Unended.ptr())));
  EXPECT_EQ(Fault, LaunchFault::Assert);
  EXPECT_TRUE(mentions("device assertion failed: (message unreadable: "
                       "0x7e5a00000000 is outside every allocation"))
      << Err;
  EXPECT_TRUE(mentions(" at /src/k.cu:7 in (function unreadable: the string "
                       "at 0x"))
      << Err;
  EXPECT_EQ(Err.find('\n'), std::string::npos) << Err;
}

// A core user launching unchecked (no allocation table) passes host memory
// as it is: the string is read as given.
TEST_F(DeviceStrings, UncheckedReadsHostMemory) {
  static const char Host[] = "host";
  const char *P = Host;
  EXPECT_TRUE(run("pr", Args().add(P).add(0u), /*Checked=*/false)) << Err;
  EXPECT_EQ(Out, "host\n");
}

} // namespace
