//===- ReplayMain.cpp - Runs a fuzzer's entry point on saved inputs -------===//
//
// The main of every fuzzer built without -DWARPSCOPE_FUZZ=ON
// (cmake/WarpScopeFuzz.cmake), as LLVM links its fuzzers without
// LLVM_USE_SANITIZE_COVERAGE: each argument is an input file or a folder of
// them (read recursively, in name order), and each input is given once to
// LLVMFuzzerTestOneInput. The checked-in corpus and crash reproducers thus
// become a deterministic regression test: an input that traps or crashes
// ends the process, after a line naming it.
//
// Exit status: 0 when every input ran; 2 when an argument cannot be read or
// holds no input, so that a moved corpus cannot pass as an empty one.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

namespace fs = std::filesystem;

/// The input files of one argument, in name order; "" in Error when there
/// are some.
static std::vector<fs::path> inputsOf(const fs::path &Arg, std::string &Error) {
  std::vector<fs::path> Files;
  std::error_code EC;
  if (fs::is_regular_file(Arg, EC)) {
    Files.push_back(Arg);
  } else if (fs::is_directory(Arg, EC)) {
    for (fs::recursive_directory_iterator I(Arg, EC), E; !EC && I != E;
         I.increment(EC))
      if (I->is_regular_file(EC))
        Files.push_back(I->path());
    std::sort(Files.begin(), Files.end());
  }
  if (EC)
    Error = Arg.string() + ": " + EC.message();
  else if (Files.empty())
    Error = Arg.string() + ": no input file there; give the fuzzer's corpus";
  return Files;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <input file or folder>...\n", argv[0]);
    return 2;
  }
  size_t Count = 0;
  for (int I = 1; I < argc; ++I) {
    std::string Error;
    std::vector<fs::path> Files = inputsOf(argv[I], Error);
    if (!Error.empty()) {
      std::fprintf(stderr, "error: %s\n", Error.c_str());
      return 2;
    }
    for (const fs::path &File : Files) {
      std::ifstream In(File, std::ios::binary);
      std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                              std::istreambuf_iterator<char>());
      if (In.bad()) {
        std::fprintf(stderr, "error: %s: cannot be read\n", File.c_str());
        return 2;
      }
      // A buffer of exactly the input's size, as libFuzzer gives: a read
      // past its end is a read past the allocation.
      std::unique_ptr<uint8_t[]> Data(new uint8_t[Bytes.size()]);
      std::copy(Bytes.begin(), Bytes.end(), Data.get());
      std::printf("Running: %s\n", File.c_str());
      std::fflush(stdout);
      LLVMFuzzerTestOneInput(Data.get(), Bytes.size());
      ++Count;
    }
  }
  std::printf("Replayed %zu inputs\n", Count);
  return 0;
}
