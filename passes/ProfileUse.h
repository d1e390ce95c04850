//===- ProfileUse.h - Branch weights from a WarpScope profile -------------===//
//
// -warpscope-profile-use=FILE.profdata: at the end of the optimization
// pipeline, where the instrumented build took its counts, attaches to device
// functions whose CFG checksum still matches: function_entry_count (warp
// entries), branch_weights (threads taking each successor of a probed
// branch; warp counts for proven-uniform ones) and !warpscope.divergence
// (divergent / visits). The file is an LLVM instrumentation profile written
// by `warpscope pgo --format instr` (layout: warpscope/ABI/PgoRecord.h), read
// with LLVM's own reader, so `llvm-profdata merge` combines runs. Stale
// functions get one warning each and no weights. A build that uses a profile
// is not instrumented: the pass marks the module with a module flag that the
// device pass reads.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PROFILEUSE_H
#define WARPSCOPE_PASSES_PROFILEUSE_H

#include "ModuleIdentity.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include <string>

namespace warpscope {

/// The profile-use pass's settings: the profile-use rows of
/// PluginOptions.def (profile-use: the LLVM profile to read, empty: the pass
/// does nothing; reduce-loops-first: run the code generator's passes first,
/// as the instrumenting build did, ReduceLoops.h), each the
/// -warpscope-<name> option of its row, which overrides it when given.
struct ProfileUseOptions {
#define WARPSCOPE_PGO_OPTION(Type, Field, Name, Default, ...)                  \
  Type Field = Default;
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_PGO_OPTION
#include "PluginOptions.def"
  ModuleIdentityOptions Identity;
};

class ProfileUsePass : public llvm::PassInfoMixin<ProfileUsePass> {
public:
  /// Options given on the command line override Opts.
  explicit ProfileUsePass(ProfileUseOptions Opts = ProfileUseOptions());
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  /// The pipeline text for this pass, with its parameters
  /// (PassParameters.h).
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }

private:
  ProfileUseOptions Opts;
};

/// The module flag (i32 1, behaviour Max) the pass sets on each device module
/// it is given a profile for, whether or not the profile has counts for it.
inline constexpr llvm::StringLiteral ProfileUseFlag = "warpscope.profile-use";

/// Whether M carries ProfileUseFlag: it is a profile-guided rebuild.
bool usesProfile(const llvm::Module &M);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PROFILEUSE_H
