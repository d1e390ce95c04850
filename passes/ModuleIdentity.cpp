//===- ModuleIdentity.cpp - Module ids and the database directory ---------===//

#include "ModuleIdentity.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <unistd.h>

using namespace llvm;
using namespace warpscope;

std::string warpscope::moduleId(const Module &M,
                                const ModuleIdentityOptions &Opts) {
  if (!Opts.ModuleId.empty())
    return Opts.ModuleId;
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    Cwd.clear();
  uint64_t H = fnv1a64(Cwd.str());
  H = fnv1a64(StringRef("\0", 1), H);
  H = fnv1a64(M.getSourceFileName(), H);
  return formatv("{0:x-16}", H).str();
}

std::string warpscope::databaseDirectory(const ModuleIdentityOptions &Opts) {
  if (!Opts.DatabaseDir.empty())
    return Opts.DatabaseDir;
  if (auto Env = sys::Process::GetEnv("WARPSCOPE_DB_DIR"))
    return *Env;
  SmallString<128> Dir;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
  sys::path::append(Dir, formatv("warpscope-{0}", getuid()).str(), "db");
  return std::string(Dir);
}

std::string warpscope::compileJobTag() {
  // argv[1] of a cc1 process the driver spawned is "-cc1".
  auto Cmdline = MemoryBuffer::getFileAsStream("/proc/self/cmdline");
  if (!Cmdline)
    return "";
  SmallVector<StringRef, 4> Args;
  (*Cmdline)->getBuffer().split(Args, '\0', /*MaxSplit=*/2);
  bool SpawnedCc1 = Args.size() > 1 && Args[1] == "-cc1";
  return std::to_string(SpawnedCc1 ? getppid() : getpid());
}

std::string warpscope::databaseFile(StringRef Dir, StringRef Id,
                                    StringRef Tag) {
  SmallString<256> P(Dir);
  sys::path::append(P, Tag.empty() ? Id + ".json" : Id + "." + Tag + ".json");
  return std::string(P);
}
