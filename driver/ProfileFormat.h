//===- ProfileFormat.h - Readers shared by the profile loader ---*- C++ -*-===//
//
// Private to the driver's profile loader (ProfileModel.cpp): strict JSON
// field access, the program database turned into empty function profiles
// and the join of a counter array with them (ProfileDatabase.cpp), and the
// per-launch records of a per-launch run (LaunchRecords.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PROFILEFORMAT_H
#define WARPSCOPE_DRIVER_PROFILEFORMAT_H

#include "ProfileModel.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace warpscope::profile {

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;
namespace json = llvm::json;

extern const char *RerunHint;

/// "File: What; Hint" as an error.
Error fail(const Twine &File, const Twine &What, const Twine &Hint);

/// A file that holds one JSON object, or an error naming it.
Expected<json::Value> readJson(const std::string &Path, const char *Hint);

/// Strict field access: the first problem wins and names the field.
struct Fields {
  std::string File;
  std::string Problem;
  void bad(StringRef Key, StringRef Expected) {
    if (Problem.empty())
      Problem = ("field '" + Key + "' is missing or not " + Expected).str();
  }
  uint64_t u64(const json::Object &O, StringRef Key) {
    if (const json::Value *V = O.get(Key))
      if (auto N = V->getAsUINT64())
        return *N;
    bad(Key, "a non-negative integer");
    return 0;
  }
  std::string str(const json::Object &O, StringRef Key) {
    if (auto S = O.getString(Key))
      return S->str();
    bad(Key, "a string");
    return "";
  }
  bool flag(const json::Object &O, StringRef Key) {
    if (auto B = O.getBoolean(Key))
      return *B;
    bad(Key, "a boolean");
    return false;
  }
  const json::Array *arr(const json::Object &O, StringRef Key) {
    if (const json::Array *A = O.getArray(Key))
      return A;
    bad(Key, "an array");
    return nullptr;
  }
  const json::Object *obj(const json::Value &V, StringRef What) {
    if (const json::Object *O = V.getAsObject())
      return O;
    bad(What, "an object");
    return nullptr;
  }
};

struct Database {
  std::vector<FunctionProfile> Functions; ///< counts still zero
  uint64_t NumCounters = 0;
  std::map<std::string, std::string> SourceHashes;
  /// -warpscope-kernel-filter ("" without), the kernels it left out, and
  /// the demangled functions a left-out kernel may call too.
  std::string KernelFilter;
  std::vector<LeftOutKernel> NotInstrumented;
  std::vector<std::string> SharedWithLeftOut;
};

/// The database at Path, which must belong to ModuleId.
Expected<Database> loadDatabase(const std::string &Path,
                                const std::string &ModuleId);

/// One module run's counts for a database's functions: block records
/// first, then branches (which may take visits and active threads from their
/// block), then blocks derived from a branch. Counts no execution can
/// produce mean a damaged profile: the result is an error, not a number.
std::string countsFor(const Database &DB, const std::vector<uint64_t> &C,
                      std::vector<FunctionProfile> &Out);

/// Adds one module run's counts to the functions' totals.
void addCounts(std::vector<FunctionProfile> &Fns,
               const std::vector<FunctionProfile> &Run);

/// Per-launch records summed per kernel and configuration.
struct ConfigurationSums {
  /// (module id, kernel, grid, block, shared bytes) -> launches, counters
  using Key = std::tuple<std::string, std::string, uint32_t, uint32_t, uint32_t,
                         uint32_t, uint32_t, uint32_t, uint64_t>;
  std::map<Key, std::pair<LaunchGroup, std::vector<uint64_t>>> Groups;
  /// Each record on its own, in file order (kept only when asked for):
  /// module id, kernel, its configuration, the [index, value] words.
  struct Launch {
    std::string ModuleId, Kernel;
    LaunchGroup Group;
    std::vector<std::pair<uint64_t, uint64_t>> Words;
  };
  bool KeepLaunches = false;
  std::vector<Launch> Launches;
  std::set<std::pair<std::string, std::string>> Incomplete; ///< module, kernel
};

/// Reads a per-launch run's launches-*.jsonl (each line: one launch, its
/// configuration and the counter words it changed) into Sums. NumCounters:
/// per module id, the size of its counter array.
Error readLaunchRecords(const std::string &Path,
                        const std::map<std::string, uint64_t> &NumCounters,
                        ConfigurationSums &Sums);

} // namespace warpscope::profile

#endif // WARPSCOPE_DRIVER_PROFILEFORMAT_H
