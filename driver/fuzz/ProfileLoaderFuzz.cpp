//===- ProfileLoaderFuzz.cpp - libFuzzer target for the profile loader ----===//
//
// The input is a profile and a database separated by a NUL byte. They are
// written into a scratch directory (as the runtime would) and loaded,
// summarized and rendered: any input must give a result or a one-line
// error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "ProfileModel.h"
#include "Report.h"
#include "RunDirectory.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace warpscope;

static std::string scratchDirectory() {
  static std::string Dir = [] {
    char Template[] = "/tmp/wsfuzzXXXXXX";
    return std::string(mkdtemp(Template));
  }();
  return Dir;
}

static void writeFile(const std::string &Path, const char *Data, size_t Size) {
  FILE *F = std::fopen(Path.c_str(), "wb");
  std::fwrite(Data, 1, Size, F);
  std::fclose(F);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const char *Text = reinterpret_cast<const char *>(Data);
  std::string Input(Text, Size);
  size_t Split = Input.find('\0');
  std::string Profile = Input.substr(0, Split);
  std::string Database =
      Split == std::string::npos ? std::string() : Input.substr(Split + 1);
  std::string Dir = scratchDirectory();
  writeFile(Dir + "/profile-1.json", Profile.data(), Profile.size());
  writeFile(Dir + "/db-00000000000000aa.json", Database.data(),
            Database.size());
  RunDirectory Run(Dir);
  llvm::Expected<const ProfileSet &> Set = Run.profiles();
  if (!Set) {
    std::string Message = llvm::toString(Set.takeError());
    if (Message.find('\n') != std::string::npos)
      __builtin_trap(); // errors are one line
    return 0;
  }
  auto Summary = summarize(*Set, "");
  if (!Summary) {
    llvm::consumeError(Summary.takeError());
    return 0;
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  renderText(*Set, *Summary, 0, OS);
  OS << renderJson(*Set, *Summary);
  return 0;
}
