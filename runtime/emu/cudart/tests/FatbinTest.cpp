//===- FatbinTest.cpp - fatbin decoder and LZ4 block decoder tests --------===//
#include "warpscope/Fatbin/Fatbin.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <random>

using namespace warpscope::emu::fatbin;
using emutest::buildFatbin;
using emutest::dataPath;
using emutest::readFile;
using emutest::TestEntry;

namespace {

std::string expectedPtx() {
  auto B = readFile(dataPath("tiny.ptx"));
  return std::string(B.begin(), B.end());
}

PtxResult extractFile(const std::string &Name) {
  auto B = readFile(dataPath(Name));
  EXPECT_FALSE(B.empty()) << Name;
  return extractPtx(B.data(), B.size());
}

} // namespace

TEST(Fatbin, ClangDefaultZstd) {
  auto B = readFile(dataPath("clang-zstd.fatbin"));
  ASSERT_FALSE(B.empty());
  EXPECT_EQ(containerSize(B.data()), B.size());
  Container C;
  std::string Err;
  ASSERT_TRUE(parseContainer(B.data(), B.size(), C, Err)) << Err;
  ASSERT_EQ(C.Entries.size(), 2u);
  EXPECT_TRUE(C.Entries[0].isElf());
  EXPECT_EQ(C.Entries[0].Arch, 90u);
  EXPECT_EQ(C.Entries[0].Comp, Compression::None);
  EXPECT_TRUE(C.Entries[1].isPtx());
  EXPECT_EQ(C.Entries[1].Arch, 90u);
  EXPECT_EQ(C.Entries[1].Comp, Compression::Zstd);
  EXPECT_EQ(C.Entries[1].HeaderSize, 80u);
  EXPECT_EQ(C.Entries[1].VersionMajor, 8);
  EXPECT_EQ(C.Entries[1].VersionMinor, 8);

  PtxResult R = extractPtx(B.data(), B.size());
  ASSERT_EQ(R.Status, PtxStatus::Ok) << R.Error;
  EXPECT_EQ(R.Arch, 90u);
  EXPECT_EQ(R.Ptx, expectedPtx());
  EXPECT_NE(R.Ptx.find(".entry _Z5scalePffi"), std::string::npos);
  EXPECT_NE(R.Ptx.find(".target sm_90"), std::string::npos);
}

TEST(Fatbin, Uncompressed) {
  PtxResult R = extractFile("plain.fatbin");
  ASSERT_EQ(R.Status, PtxStatus::Ok) << R.Error;
  EXPECT_EQ(R.Ptx, expectedPtx());
  EXPECT_EQ(R.ElfArchs, std::vector<uint32_t>{90});
}

TEST(Fatbin, Lz4Variant) {
  auto B = readFile(dataPath("lz4.fatbin"));
  Container C;
  std::string Err;
  ASSERT_TRUE(parseContainer(B.data(), B.size(), C, Err)) << Err;
  ASSERT_EQ(C.Entries.size(), 1u);
  EXPECT_EQ(C.Entries[0].Comp, Compression::Lz4);
  PtxResult R = extractPtx(B.data(), B.size());
  ASSERT_EQ(R.Status, PtxStatus::Ok) << R.Error;
  EXPECT_EQ(R.Ptx, expectedPtx());
}

TEST(Fatbin, SelectsHighestArchAtMost90) {
  PtxResult R = extractFile("multi.fatbin"); // sm_80, sm_90, sm_100
  ASSERT_EQ(R.Status, PtxStatus::Ok) << R.Error;
  EXPECT_EQ(R.Arch, 90u);
  EXPECT_NE(R.Ptx.find(".target sm_90"), std::string::npos);

  R = extractFile("ptx100-80.fatbin"); // sm_100 first, then sm_80
  ASSERT_EQ(R.Status, PtxStatus::Ok) << R.Error;
  EXPECT_EQ(R.Arch, 80u);
  EXPECT_NE(R.Ptx.find(".target sm_80"), std::string::npos);

  TestEntry A, Bn;
  A.Arch = 100;
  A.Payload = "// sm100";
  Bn.Arch = 120;
  Bn.Payload = "// sm120";
  auto F = buildFatbin({A, Bn});
  R = extractPtx(F.data(), F.size());
  ASSERT_EQ(R.Status, PtxStatus::Ok) << R.Error;
  EXPECT_EQ(R.Arch, 120u); // none <= 90: the highest available
  EXPECT_EQ(R.Ptx, "// sm120");
}

TEST(Fatbin, NoPtx) {
  PtxResult R = extractFile("noptx.fatbin");
  EXPECT_EQ(R.Status, PtxStatus::NoPtx);
  EXPECT_EQ(R.ElfArchs, std::vector<uint32_t>{90});
}

TEST(Fatbin, TruncatedAndCorrupt) {
  PtxResult R = extractFile("truncated.fatbin");
  EXPECT_EQ(R.Status, PtxStatus::Corrupt);
  EXPECT_NE(R.Error.find("truncated"), std::string::npos) << R.Error;
  EXPECT_EQ(R.Error.find('\n'), std::string::npos);

  R = extractFile("corrupt-zstd.fatbin");
  EXPECT_EQ(R.Status, PtxStatus::Corrupt);
  EXPECT_NE(R.Error.find("zstd"), std::string::npos) << R.Error;
}

TEST(Fatbin, BadHeaders) {
  std::string Err;
  Container C;
  uint8_t Zero[32] = {};
  EXPECT_FALSE(parseContainer(Zero, sizeof(Zero), C, Err));
  EXPECT_NE(Err.find("magic"), std::string::npos);
  EXPECT_FALSE(parseContainer(nullptr, 0, C, Err));
  EXPECT_EQ(containerSize(Zero), 0u);

  TestEntry E;
  E.Payload = "ptx";
  auto B = buildFatbin({E});
  // Entry header size below 64.
  auto Bad = B;
  emutest::put<uint32_t>(Bad, 16 + 4, 8);
  EXPECT_FALSE(parseContainer(Bad.data(), Bad.size(), C, Err));
  // Payload past the container end.
  Bad = B;
  emutest::put<uint64_t>(Bad, 16 + 8, 1ull << 40);
  EXPECT_FALSE(parseContainer(Bad.data(), Bad.size(), C, Err));
  // Container size larger than the buffer.
  Bad = B;
  emutest::put<uint64_t>(Bad, 8, 1ull << 20);
  EXPECT_FALSE(parseContainer(Bad.data(), Bad.size(), C, Err));
  // Compressed entry claiming an absurd uncompressed size.
  TestEntry Z;
  Z.Payload = std::string(16, 'x');
  Z.Flags = 0x8011;
  Z.CompressedSize = 16;
  Z.UncompressedSize = 1ull << 40;
  auto ZB = buildFatbin({Z});
  PtxResult R = extractPtx(ZB.data(), ZB.size());
  EXPECT_EQ(R.Status, PtxStatus::Corrupt);
  EXPECT_NE(R.Error.find("implausible"), std::string::npos) << R.Error;
}

TEST(Fatbin, EveryPrefixAndRandomFlipsAreHandled) {
  for (const char *Name : {"clang-zstd.fatbin", "lz4.fatbin"}) {
    auto B = readFile(dataPath(Name));
    for (size_t N = 0; N < B.size(); ++N) {
      std::vector<uint8_t> Prefix(B.begin(), B.begin() + N);
      PtxResult R = extractPtx(Prefix.data(), Prefix.size());
      EXPECT_NE(R.Status, PtxStatus::Ok) << Name << " prefix " << N;
    }
    std::mt19937 Rng(42);
    for (int I = 0; I < 2000; ++I) {
      auto M = B;
      for (int K = 0; K < 4; ++K)
        M[Rng() % M.size()] ^= uint8_t(1u << (Rng() % 8));
      (void)extractPtx(M.data(), M.size()); // must not crash
    }
  }
}

TEST(Fatbin, Wrapper) {
  auto B = readFile(dataPath("plain.fatbin"));
  emutest::FatbinWrapper W;
  W.Data = B.data();
  Wrapper Out;
  std::string Err;
  ASSERT_TRUE(readWrapper(&W, Out, Err)) << Err;
  EXPECT_EQ(Out.Data, B.data());
  EXPECT_EQ(Out.Version, 1u);
  W.Magic = 0x1234;
  EXPECT_FALSE(readWrapper(&W, Out, Err));
  EXPECT_NE(Err.find("magic"), std::string::npos);
  W.Magic = 0x466243B1;
  W.Data = nullptr;
  EXPECT_FALSE(readWrapper(&W, Out, Err));
  EXPECT_FALSE(readWrapper(nullptr, Out, Err));
}

//===-- LZ4 ---------------------------------------------------------------===//

namespace {
std::string lz4(const std::vector<uint8_t> &Block, size_t OutLen,
                std::string *ErrOut = nullptr) {
  std::string Out(OutLen, '\0'), Err;
  long long N =
      lz4DecompressBlock(Block.data(), Block.size(),
                         reinterpret_cast<uint8_t *>(&Out[0]), Out.size(), Err);
  if (ErrOut)
    *ErrOut = Err;
  if (N < 0)
    return "<error>";
  Out.resize(size_t(N));
  return Out;
}
} // namespace

TEST(Lz4, LiteralsOnly) {
  EXPECT_EQ(lz4({0x50, 'h', 'e', 'l', 'l', 'o'}, 5), "hello");
  EXPECT_EQ(lz4({0x00}, 0), "");
}

TEST(Lz4, OverlappingMatch) {
  // "abc" + match(offset 3, length 6), then a literals-only last sequence.
  EXPECT_EQ(lz4({0x32, 'a', 'b', 'c', 3, 0, 0x10, '!'}, 10), "abcabcabc!");
  // Run-length: 'a' then match(offset 1, length 20 = 15 + 1 + 4).
  EXPECT_EQ(lz4({0x1F, 'a', 1, 0, 1}, 21), std::string(21, 'a'));
}

TEST(Lz4, LongLiteralLength) {
  std::vector<uint8_t> B = {0xF0, 255, 30}; // 15 + 255 + 30 = 300
  std::string Lit;
  for (int I = 0; I < 300; ++I)
    Lit.push_back(char('A' + I % 26));
  B.insert(B.end(), Lit.begin(), Lit.end());
  EXPECT_EQ(lz4(B, 300), Lit);
}

TEST(Lz4, MalformedBlocks) {
  std::string Err;
  EXPECT_EQ(lz4({0x10, 'a', 0, 0}, 16, &Err), "<error>"); // offset 0
  EXPECT_NE(Err.find("offset"), std::string::npos);
  EXPECT_EQ(lz4({0x10, 'a', 5, 0}, 16, &Err), "<error>"); // before start
  EXPECT_EQ(lz4({0x50, 'a', 'b'}, 16, &Err), "<error>");  // short literals
  EXPECT_EQ(lz4({0x10, 'a', 1}, 16, &Err), "<error>");    // short offset
  EXPECT_EQ(lz4({0xF0}, 16, &Err), "<error>");            // short length
  EXPECT_EQ(lz4({0x50, 'h', 'e', 'l', 'l', 'o'}, 3, &Err), "<error>");
  EXPECT_EQ(lz4({0x1F, 'a', 1, 0, 1}, 10, &Err), "<error>"); // overflow
  EXPECT_EQ(lz4({}, 4, &Err), "<error>");
}
