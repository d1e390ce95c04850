//===- Truth.cpp - ground-truth files of the loaded modules ---------------===//
//
// Writes each loaded module's exact ground truth (Module::groundTruthJson)
// to $WARPSCOPE_OUT (default ./warpscope-out) as emu-<pid>-<index>.json,
// when the program unregisters the module or at exit, unless
// WARPSCOPE_EMU_TRUTH is 0, off or false. These two are the only settings
// this directory reads from the environment (the core reads its own, and
// WARPSCOPE_EMU_TRUTH too: without ground truth it skips the memory counts).
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/Support/AtomicFile.h"
#include "warpscope/Support/Settings.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace warpscope::emu;
namespace files = warpscope::files;
namespace support = warpscope::support;

namespace {

bool truthEnabled() {
  support::SettingsReader R;
  bool On = R.flag("WARPSCOPE_EMU_TRUTH", true);
  if (!R.warnings().empty())
    fprintf(stderr, "warpscope-emu: warning: %s\n", R.firstWarning().c_str());
  return On;
}

} // namespace

namespace warpscope::emu::cudart {

void writeTruth(ModuleRec &R) {
  if (R.TruthWritten || !R.M || !truthEnabled())
    return;
  R.TruthWritten = true;
  std::string Dir = cudart::truthDirectory();
  std::string Name = files::Truth.named(std::to_string(getpid()) + "-" +
                                        std::to_string(R.Index));
  std::string Error =
      support::writeFileInDirectory(Dir, Name, R.M->groundTruthJson());
  if (!Error.empty())
    fprintf(stderr, "warpscope-emu: warning: %s\n", Error.c_str());
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
