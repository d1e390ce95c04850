//===- JsonFiles.h - The JSON files runs leave in a profile directory ----===//
//
// Reading one of them: its top-level object and schema tag. Which files a
// directory holds is RunDirectory's to say.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_JSONFILES_H
#define WARPSCOPE_DRIVER_JSONFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <string>

namespace warpscope {

/// Path's top-level JSON object, whose "schema" must be one of Schemas (the
/// newest first; the object's "schema" says which). Fail turns "what is
/// wrong" into the caller's one-line error (file name and what to do).
inline llvm::Expected<llvm::json::Object>
readSchemaObject(const std::string &Path,
                 llvm::ArrayRef<llvm::StringRef> Schemas,
                 llvm::function_ref<llvm::Error(const llvm::Twine &)> Fail) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return Fail("cannot read (" + Buf.getError().message() + ")");
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buf)->getBuffer());
  if (!V)
    return Fail("is not valid JSON (" + llvm::toString(V.takeError()) +
                "); the file is corrupt or truncated");
  llvm::json::Object *Top = V->getAsObject();
  if (!Top)
    return Fail("is not a JSON object");
  std::optional<llvm::StringRef> Found = Top->getString("schema");
  if (!Found)
    return Fail("has no 'schema' field");
  if (llvm::is_contained(Schemas, *Found))
    return std::move(*Top);
  std::string Known;
  for (llvm::StringRef S : Schemas)
    Known += (Known.empty() ? "'" : " or '") + S.str() + "'";
  return Fail("has schema '" + *Found + "', this warpscope reads " + Known);
}

inline llvm::Expected<llvm::json::Object>
readSchemaObject(const std::string &Path, llvm::StringRef Schema,
                 llvm::function_ref<llvm::Error(const llvm::Twine &)> Fail) {
  return readSchemaObject(Path, llvm::ArrayRef<llvm::StringRef>(Schema), Fail);
}

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_JSONFILES_H
