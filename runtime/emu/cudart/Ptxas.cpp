//===- Ptxas.cpp - Kernel resources from `ptxas -v` -----------------------===//

#include "Ptxas.h"
#include "warpscope/Support/AtomicFile.h"
#include "warpscope/Support/Fnv.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

extern char **environ;

using namespace warpscope;
using namespace warpscope::emu::cudart;

namespace {

constexpr const char *GpuName = "sm_90";

/// The number just before Suffix in Line ("17 registers" -> 17), if any.
bool numberBefore(std::string_view Line, std::string_view Suffix,
                  uint64_t &Out) {
  size_t At = Line.find(Suffix);
  if (At == std::string_view::npos || At == 0)
    return false;
  size_t Begin = At;
  while (Begin > 0 && Line[Begin - 1] >= '0' && Line[Begin - 1] <= '9')
    --Begin;
  if (Begin == At)
    return false;
  Out = std::strtoull(std::string(Line.substr(Begin, At - Begin)).c_str(),
                      nullptr, 10);
  return true;
}

/// The text between the first quote after Tag and the next one.
std::string quotedAfter(std::string_view Line, std::string_view Tag) {
  size_t At = Line.find(Tag);
  if (At == std::string_view::npos)
    return "";
  size_t Open = Line.find('\'', At + Tag.size());
  size_t Close =
      Open == std::string_view::npos ? Open : Line.find('\'', Open + 1);
  return Close == std::string_view::npos
             ? ""
             : std::string(Line.substr(Open + 1, Close - Open - 1));
}

std::string readFile(const std::string &Path, bool &Ok) {
  std::ifstream In(Path, std::ios::binary);
  Ok = bool(In);
  std::ostringstream S;
  S << In.rdbuf();
  return S.str();
}

bool executable(const std::string &Path) {
  return !Path.empty() && access(Path.c_str(), X_OK) == 0;
}

/// The first line of ptxas's output that says what is wrong.
std::string firstError(const std::string &Output) {
  std::istringstream In(Output);
  std::string Line;
  while (std::getline(In, Line))
    if (Line.find("error") != std::string::npos ||
        Line.find("fatal") != std::string::npos)
      return Line;
  return Output.substr(0, Output.find('\n'));
}

/// Runs Ptxas on PtxFile; its stdout and stderr together in Output.
bool runPtxas(const std::string &Ptxas, const std::string &PtxFile,
              const std::string &LogFile, std::string &Output,
              std::string &Error) {
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 1, LogFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  std::string Gpu = GpuName;
  const char *Argv[] = {Ptxas.c_str(),   "-v",   "--gpu-name",
                        Gpu.c_str(),     "-o",   "/dev/null",
                        PtxFile.c_str(), nullptr};
  pid_t Pid = 0;
  int Rc = posix_spawn(&Pid, Ptxas.c_str(), &Actions, nullptr,
                       const_cast<char *const *>(Argv), environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (Rc != 0) {
    Error = "could not run " + Ptxas + ": " + std::strerror(Rc);
    return false;
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0)
    if (errno != EINTR) {
      Error = "lost " + Ptxas + ": " + std::strerror(errno);
      return false;
    }
  bool Ok = false;
  Output = readFile(LogFile, Ok);
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    Error = "ptxas rejected the PTX: " + firstError(Output);
    return false;
  }
  return true;
}

/// Runs ptxas on Ptx through temporary files in S.TempDir.
bool assemble(const std::string &Ptx, const PtxasSettings &S,
              std::string &Output, std::string &Error) {
  std::string Why;
  std::string Ptxas = findPtxas(S, Why);
  if (Ptxas.empty()) {
    Error = Why;
    return false;
  }
  std::string Base = S.TempDir + "/warpscope-ptxas-XXXXXX";
  std::vector<char> Name(Base.begin(), Base.end());
  Name.push_back('\0');
  int Fd = mkstemp(Name.data());
  if (Fd < 0) {
    Error = "cannot create a temporary file in " + S.TempDir + ": " +
            std::strerror(errno);
    return false;
  }
  std::string PtxFile = Name.data(), LogFile = PtxFile + ".log";
  bool Written = write(Fd, Ptx.data(), Ptx.size()) == ssize_t(Ptx.size());
  close(Fd);
  bool Ok = Written && runPtxas(Ptxas, PtxFile, LogFile, Output, Error);
  if (!Written)
    Error = "cannot write " + PtxFile;
  unlink(PtxFile.c_str());
  unlink(LogFile.c_str());
  return Ok;
}

} // namespace

namespace warpscope::emu::cudart {

PtxasReport parsePtxasOutput(std::string_view Text) {
  PtxasReport Out;
  std::map<std::string, PtxasKernel> Properties; // by "Function properties"
  std::string Entry, Props;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    std::string_view Line = Text.substr(0, End);
    Text.remove_prefix(End == std::string_view::npos ? Text.size() : End + 1);
    uint64_t N = 0;
    if (Line.find("Compiling entry function") != std::string_view::npos) {
      Entry = quotedAfter(Line, "Compiling entry function");
      Out[Entry];
    } else if (size_t At = Line.find("Function properties for ");
               At != std::string_view::npos) {
      Props = std::string(Line.substr(At + 24));
      while (!Props.empty() && (Props.back() == '\r' || Props.back() == ' '))
        Props.pop_back();
    } else if (numberBefore(Line, " bytes stack frame", N)) {
      PtxasKernel &K = Properties[Props];
      K.StackFrameBytes = N;
      if (numberBefore(Line, " bytes spill stores", N))
        K.SpillStoreBytes = N;
      if (numberBefore(Line, " bytes spill loads", N))
        K.SpillLoadBytes = N;
    } else if (numberBefore(Line, " registers", N) && !Entry.empty() &&
               Line.find("Used ") != std::string_view::npos) {
      PtxasKernel &K = Out[Entry];
      K.Registers = uint32_t(N);
      if (numberBefore(Line, " bytes smem", N))
        K.SharedBytes = N;
    }
  }
  for (auto &[Name, K] : Out)
    if (auto It = Properties.find(Name); It != Properties.end()) {
      K.StackFrameBytes = It->second.StackFrameBytes;
      K.SpillStoreBytes = It->second.SpillStoreBytes;
      K.SpillLoadBytes = It->second.SpillLoadBytes;
    }
  return Out;
}

PtxasSettings readPtxasSettings(support::EnvLookup Get) {
  support::SettingsReader R(Get);
  PtxasSettings S;
  S.Explicit = R.text("WARPSCOPE_PTXAS");
  S.CudaHome = R.text("CUDA_HOME");
  S.Path = R.text("PATH");
  std::string Xdg = R.text("XDG_CACHE_HOME"), Home = R.text("HOME");
  if (!Xdg.empty())
    S.CacheDir = Xdg + "/warpscope/ptxas";
  else if (!Home.empty())
    S.CacheDir = Home + "/.cache/warpscope/ptxas";
  S.TempDir = R.text("TMPDIR");
  if (S.TempDir.empty())
    S.TempDir = "/tmp";
  return S;
}

std::string findPtxas(const PtxasSettings &S, std::string &Why) {
  if (!S.Explicit.empty()) {
    if (executable(S.Explicit))
      return S.Explicit;
    Why = "WARPSCOPE_PTXAS=" + S.Explicit +
          " is not an executable; point it at CUDA's bin/ptxas";
    return "";
  }
  if (!S.CudaHome.empty() && executable(S.CudaHome + "/bin/ptxas"))
    return S.CudaHome + "/bin/ptxas";
  if (executable("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  std::string_view Path = S.Path;
  while (!Path.empty()) {
    size_t Colon = Path.find(':');
    std::string Dir(Path.substr(0, Colon));
    Path.remove_prefix(Colon == std::string_view::npos ? Path.size()
                                                       : Colon + 1);
    if (!Dir.empty() && executable(Dir + "/ptxas"))
      return Dir + "/ptxas";
  }
  Why = "ptxas not found in $CUDA_HOME/bin, /usr/local/cuda/bin or PATH; "
        "install the CUDA toolkit or set WARPSCOPE_PTXAS";
  return "";
}

std::string ptxHash(std::string_view Ptx) {
  uint64_t H = fnv1a64(Ptx);
  char Buf[17];
  std::snprintf(Buf, sizeof(Buf), "%016llx", (unsigned long long)H);
  return Buf;
}

bool ptxasResources(const std::string &Ptx, const PtxasSettings &S,
                    PtxasReport &Out, std::string &Error) {
  // Process-wide: modules with the same PTX (a program loading the same
  // library twice) assemble once.
  static std::mutex Lock;
  static std::map<std::string, PtxasReport> Memory;
  std::lock_guard<std::mutex> G(Lock);
  std::string Key = ptxHash(Ptx) + "-" + GpuName;
  if (auto It = Memory.find(Key); It != Memory.end()) {
    Out = It->second;
    return true;
  }
  std::string CacheFile = S.CacheDir.empty() ? "" : S.CacheDir + "/" + Key;
  bool Cached = false;
  std::string Output =
      CacheFile.empty() ? "" : readFile(CacheFile + ".txt", Cached);
  if (!Cached) {
    if (!assemble(Ptx, S, Output, Error))
      return false;
    // Best effort: a cache that cannot be written costs only time.
    if (!CacheFile.empty() && support::makeDirectories(S.CacheDir).empty())
      support::writeFileAtomically(CacheFile + ".txt", Output);
  }
  Out = parsePtxasOutput(Output);
  Memory[Key] = Out;
  return true;
}

} // namespace warpscope::emu::cudart
