//===- Truth.cpp - ground-truth files of the loaded modules ---------------===//
//
// Writes each loaded module's exact ground truth (Module::groundTruthJson)
// to $WARPSCOPE_OUT (default ./warpscope-out) as emu-<pid>-<index>.json,
// when the program unregisters the module or at exit, unless
// WARPSCOPE_EMU_TRUTH is 0, off or false. These two are the only settings
// this directory reads from the environment (the core reads its own).
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/ABI/Files.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace warpscope::emu;
namespace files = warpscope::files;

namespace {

bool truthEnabled() {
  const char *E = getenv("WARPSCOPE_EMU_TRUTH");
  return !(E && (!strcmp(E, "0") || !strcmp(E, "off") || !strcmp(E, "false")));
}

void mkdirs(const std::string &Dir) {
  std::string Cur;
  size_t Pos = 0;
  while (Pos != std::string::npos) {
    Pos = Dir.find('/', Pos + 1);
    Cur = Dir.substr(0, Pos);
    if (!Cur.empty())
      mkdir(Cur.c_str(), 0777);
  }
}

} // namespace

namespace warpscope::emu::cudart {

void writeTruth(ModuleRec &R) {
  if (R.TruthWritten || !R.M || !truthEnabled())
    return;
  R.TruthWritten = true;
  std::string Dir = cudart::truthDirectory();
  mkdirs(Dir);
  std::string Base = files::Truth.named(std::to_string(getpid()) + "-" +
                                        std::to_string(R.Index));
  std::string Final = Dir + "/" + Base, Tmp = Dir + "/." + Base + ".tmp";
  std::string Json = R.M->groundTruthJson();
  FILE *F = fopen(Tmp.c_str(), "wb");
  if (!F) {
    fprintf(stderr, "warpscope-emu: warning: cannot write %s: %s\n",
            Tmp.c_str(), strerror(errno));
    return;
  }
  bool Ok = fwrite(Json.data(), 1, Json.size(), F) == Json.size();
  Ok = (fclose(F) == 0) && Ok;
  if (!Ok || rename(Tmp.c_str(), Final.c_str()) != 0) {
    fprintf(stderr, "warpscope-emu: warning: cannot write %s\n", Final.c_str());
    unlink(Tmp.c_str());
  }
}

void atExitHandler() {
  State &St = S();
  Lock L(St.Mu);
  for (auto &R : St.Modules)
    writeTruth(*R);
  syncPoint();
}

std::string truthDirectory() {
  return warpscope::outputDirectory(
      [](const char *Name) -> const char * { return getenv(Name); });
}

} // namespace warpscope::emu::cudart
