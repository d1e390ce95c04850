//===- ModuleIdentity.h - Name a translation unit the same on both sides --===//
//
// The device and host cc1 of one CUDA translation unit must agree on a module
// id without talking to each other. Both see the same working directory and
// source_filename, so the id hashes those (or takes -warpscope-module-id).
// Every pass that names a module or finds its database shares these options.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_MODULEIDENTITY_H
#define WARPSCOPE_PASSES_MODULEIDENTITY_H

#include "warpscope/Support/Fnv.h" // fnv1a64, for the id and checksums
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace llvm {
class Module;
}

namespace warpscope {

/// The identity rows of PluginOptions.def (-warpscope-module-id: this id,
/// 16 hex digits, instead of hashing cwd and source file; -warpscope-db-dir:
/// where the device compile leaves databases for the host compile), shared
/// by every pass that names a module or finds its database.
struct ModuleIdentityOptions {
#define WARPSCOPE_IDENTITY_OPTION(Type, Field, Name, Default, ...)             \
  Type Field = Default;
#include "PluginOptions.def"
};

/// The module id as 16 lowercase hex digits (Opts.ModuleId when set).
std::string moduleId(const llvm::Module &M,
                     const ModuleIdentityOptions &Opts = {});

/// Directory holding databases that the device compile leaves for the host
/// compile: Opts.DatabaseDir, else $WARPSCOPE_DB_DIR, else
/// <system temp>/warpscope-<uid>/db.
std::string databaseDirectory(const ModuleIdentityOptions &Opts = {});

/// Tells one clang invocation's compile jobs from another's: the pid of the
/// driver that runs both the device and the host cc1 (their parent, or this
/// process when cc1 runs in the driver). Two builds of one source in one
/// directory at once (say -O0 and -O2) share a module id but not this.
std::string compileJobTag();

/// The database the device compile leaves for the host compile of the same
/// invocation: <Dir>/<Id>.<Tag>.json, or <Dir>/<Id>.json with no tag (also
/// written, for device and host compiled by separate invocations).
std::string databaseFile(llvm::StringRef Dir, llvm::StringRef Id,
                         llvm::StringRef Tag = "");

} // namespace warpscope

#endif // WARPSCOPE_PASSES_MODULEIDENTITY_H
