//===- CubinLinesTest.cpp - The cubin line-table reader -------------------===//
//
// Expectations come from a different artifact than the one read: the PTX
// ptxas compiled (its .loc directives say which source lines each kernel
// has code for). The reader must find exactly those lines in the cubin's
// SASS-level table.
//
//===----------------------------------------------------------------------===//

#include "CubinLines.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace warpscope::cubin;

namespace {

const std::string Dir = WARPSCOPE_FIXTURES "/cubin";

std::vector<uint8_t> slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(In)),
                              std::istreambuf_iterator<char>());
}

/// kernel -> source lines (file 1, the .cu) its PTX body has .loc for.
std::map<std::string, std::set<unsigned>> ptxLines() {
  std::ifstream In(Dir + "/lines.ptx");
  std::map<std::string, std::set<unsigned>> Out;
  std::string Line, Kernel;
  std::regex Entry(R"(\.entry\s+(\w+)\()"), Loc(R"(^\s*\.loc\s+1\s+(\d+)\s)");
  std::smatch M;
  while (std::getline(In, Line)) {
    if (std::regex_search(Line, M, Entry))
      Kernel = M[1];
    else if (!Kernel.empty() && std::regex_search(Line, M, Loc) &&
             std::stoul(M[1]) != 0)
      Out[Kernel].insert(unsigned(std::stoul(M[1])));
  }
  return Out;
}

/// Line of the first source line containing Text.
unsigned sourceLine(const std::string &Text) {
  std::ifstream In(Dir + "/lines.cu");
  std::string L;
  for (unsigned N = 1; std::getline(In, L); ++N)
    if (L.find(Text) != std::string::npos)
      return N;
  return 0;
}

bool isSource(const LineRow &R) {
  return R.File.size() >= 9 &&
         R.File.compare(R.File.size() - 9, 9, "/lines.cu") == 0;
}

void checkTable(const std::string &Cubin) {
  SCOPED_TRACE(Cubin);
  LineTable T;
  std::string Error;
  ASSERT_TRUE(readLineTableFile(Cubin, T, Error)) << Error;
  auto Expected = ptxLines();
  ASSERT_EQ(Expected.size(), 2u) << "fixture PTX should hold two kernels";
  EXPECT_EQ(sourceLine("__global__ void scale"), 2u);

  for (const auto &[Kernel, Lines] : Expected) {
    SCOPED_TRACE(Kernel);
    std::set<unsigned> Found;
    std::vector<const LineRow *> Rows;
    for (const LineRow &R : T.Rows)
      if (R.Function == Kernel)
        Rows.push_back(&R);
    ASSERT_GE(Rows.size(), 3u);
    // One sequence per kernel: starts at offset 0, ends with the marker
    // past the last instruction, every SASS instruction 16 bytes.
    EXPECT_EQ(Rows.front()->Offset, 0u);
    EXPECT_TRUE(Rows.back()->EndSequence);
    for (size_t I = 0; I + 1 < Rows.size(); ++I) {
      EXPECT_FALSE(Rows[I]->EndSequence);
      EXPECT_EQ(Rows[I]->Offset % 16, 0u);
      EXPECT_LT(Rows[I]->Offset, Rows.back()->Offset);
      if (isSource(*Rows[I]))
        Found.insert(Rows[I]->Line);
    }
    EXPECT_EQ(Found, Lines);
    // The entry instruction belongs to the signature line, the last ones
    // to the closing brace (the highest line with code).
    EXPECT_TRUE(isSource(*Rows.front()));
    std::string Name = Kernel.find("scale") != std::string::npos
                           ? "__global__ void scale"
                           : "__global__ void count";
    EXPECT_EQ(Rows.front()->Line, sourceLine(Name));
    EXPECT_EQ(Rows[Rows.size() - 2]->Line, *Lines.rbegin());

    // Lookup: inside each row's range, the row; past the end, nothing.
    for (size_t I = 0; I + 1 < Rows.size(); ++I) {
      if (Rows[I]->Offset == Rows[I + 1]->Offset)
        continue;
      const LineRow *At = T.lookup(Kernel, Rows[I]->Offset);
      const LineRow *Mid = T.lookup(Kernel, Rows[I]->Offset + 8);
      ASSERT_TRUE(At && Mid);
      EXPECT_EQ(At->Line, Rows[I]->Line);
      EXPECT_EQ(Mid->Line, Rows[I]->Line);
    }
    EXPECT_EQ(T.lookup(Kernel, Rows.back()->Offset), nullptr);
  }
  EXPECT_EQ(T.lookup("no_such_kernel", 0), nullptr);
}

TEST(CubinLines, CheckedInCubinMatchesItsPtx) {
  checkTable(Dir + "/lines.cubin");
}

TEST(CubinLines, CubinPtxasBuildsHereMatchesItsPtx) {
  std::string Ptxas = WARPSCOPE_PTXAS;
  if (Ptxas.empty() || access(Ptxas.c_str(), X_OK) != 0)
    GTEST_SKIP() << "no ptxas; the checked-in cubin is still tested";
  char Tmpl[] = "/tmp/wscubinXXXXXX";
  ASSERT_NE(mkdtemp(Tmpl), nullptr);
  std::string Out = std::string(Tmpl) + "/lines.cubin";
  std::string Cmd =
      Ptxas + " -arch=sm_90 -lineinfo " + Dir + "/lines.ptx -o " + Out;
  ASSERT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
  checkTable(Out);
}

bool oneLine(const std::string &S) {
  return !S.empty() && S.find('\n') == std::string::npos;
}

TEST(CubinLines, EveryTruncationFailsWithOneLine) {
  std::vector<uint8_t> Bytes = slurp(Dir + "/lines.cubin");
  ASSERT_GT(Bytes.size(), 1000u);
  LineTable Full, T;
  std::string Error;
  ASSERT_TRUE(readLineTable(Bytes.data(), Bytes.size(), Full, Error));
  size_t Failed = 0;
  for (size_t N = 0; N < Bytes.size(); ++N) {
    std::vector<uint8_t> Cut(Bytes.begin(), Bytes.begin() + N);
    // Only the program headers follow the section headers; a prefix that
    // keeps every section must read the same table, any other must fail.
    if (readLineTable(Cut.data(), Cut.size(), T, Error)) {
      ASSERT_EQ(T.Rows.size(), Full.Rows.size()) << N;
      continue;
    }
    ++Failed;
    ASSERT_TRUE(oneLine(Error)) << N << ": " << Error;
  }
  EXPECT_GT(Failed, Bytes.size() * 9 / 10);
  EXPECT_FALSE(readLineTable(nullptr, 0, T, Error));
  EXPECT_EQ(Error, "not an ELF file");
  std::vector<uint8_t> Elf32 = Bytes;
  Elf32[4] = 1;
  EXPECT_FALSE(readLineTable(Elf32.data(), Elf32.size(), T, Error));
  EXPECT_NE(Error.find("64-bit"), std::string::npos) << Error;
}

TEST(CubinLines, CorruptBytesNeverCrash) {
  std::vector<uint8_t> Bytes = slurp(Dir + "/lines.cubin");
  uint64_t Seed = 12345;
  unsigned Failed = 0;
  for (unsigned Trial = 0; Trial < 3000; ++Trial) {
    std::vector<uint8_t> Bad = Bytes;
    for (unsigned K = 0; K < 4; ++K) {
      Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
      Bad[(Seed >> 33) % Bad.size()] = uint8_t(Seed >> 25);
    }
    LineTable T;
    std::string Error;
    if (!readLineTable(Bad.data(), Bad.size(), T, Error)) {
      ++Failed;
      ASSERT_TRUE(oneLine(Error)) << Error;
    }
  }
  EXPECT_GT(Failed, 0u);
}

TEST(CubinLines, CorruptLineUnitNamesTheProblem) {
  std::vector<uint8_t> Bytes = slurp(Dir + "/lines.cubin");
  // Find .debug_line's first unit by its version-2 header pattern after a
  // length: overwrite the length with one past the section.
  LineTable T;
  std::string Error;
  ASSERT_TRUE(readLineTable(Bytes.data(), Bytes.size(), T, Error));
  std::string Text(Bytes.begin(), Bytes.end());
  size_t Name = Text.find(std::string(".debug_line\0", 12));
  ASSERT_NE(Name, std::string::npos);
  std::vector<uint8_t> NoLines = Bytes;
  NoLines[Name + 10] = 'X'; // ".debug_linX": the section is gone
  EXPECT_FALSE(readLineTable(NoLines.data(), NoLines.size(), T, Error));
  EXPECT_NE(Error.find("no .debug_line"), std::string::npos) << Error;
  EXPECT_TRUE(oneLine(Error));

  EXPECT_FALSE(readLineTableFile(Dir + "/missing.cubin", T, Error));
  EXPECT_EQ(Error, Dir + "/missing.cubin: cannot read");
}

} // namespace
