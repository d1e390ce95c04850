//===- SarifFormat.h - What SARIF consumers need beyond the results -------===//
//
// GitHub code scanning (and the SARIF Multitool's GitHub rules) want more
// than a rule id and a line: rule help and a help URI, the tool's
// information URI, artifact URIs relative to a source root named by a
// uriBaseId, snippets, and fingerprints that survive unrelated edits.
// renderSarif (ReportFormats.cpp) makes the results; this file makes their
// locations and fingerprints and the log around them.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_SARIFFORMAT_H
#define WARPSCOPE_DRIVER_SARIFFORMAT_H

#include "ProfileModel.h"
#include "SourceText.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace warpscope {

/// The uriBaseId of --srcroot in every artifact location under it.
inline constexpr const char *SarifSourceRootId = "SRCROOT";

/// What every result shares: the source root, the profile's warnings (which
/// become notifications) and the source text for snippets.
struct SarifContext {
  /// Absolute, normalised, ending in '/'; empty: URIs are absolute.
  std::string SourceRoot;
  std::vector<std::string> Notifications; ///< level warning
  std::vector<std::string> Notes;         ///< level note
  SourceText *Sources = nullptr;
};

/// Dir as a source root: absolute (relative to the working directory),
/// without '.' and '..', ending in '/'. An error names Dir when it is not
/// a directory.
llvm::Expected<std::string> sarifSourceRoot(const std::string &Dir);

/// P percent-encoded as a URI path: every byte but the unreserved ones
/// (RFC 3986: letters, digits, '-', '.', '_', '~') and '/' as %XX.
std::string percentEncodePath(llvm::StringRef P);

/// {"uri", "uriBaseId"}: relative to the source root when File is under
/// it, else an absolute file:// URI; both normalised and percent-encoded.
llvm::json::Object sarifArtifactLocation(const std::string &File,
                                         const SarifContext &C);

/// A physicalLocation: the artifact, and a region with the line's snippet
/// (and the lines around it as contextRegion) when the source is readable
/// and unchanged since the build.
llvm::json::Object sarifPhysicalLocation(const Location &L,
                                         const SarifContext &C);

/// partialFingerprints: a hash of the rule, the artifact's URI, the
/// function and the text of the line (not its number), so a result keeps
/// its identity when code above it moves.
llvm::json::Object sarifFingerprints(llvm::StringRef RuleId, const Location &L,
                                     llvm::StringRef Function,
                                     const SarifContext &C);

/// The log: tool (version, information URI, the rules with help and help
/// URIs), the source root as originalUriBaseIds, the notifications, and
/// Results.
llvm::json::Value sarifLog(llvm::json::Array Results, const SarifContext &C);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_SARIFFORMAT_H
