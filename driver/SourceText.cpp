//===- SourceText.cpp - Source lines for reports, never stale -------------===//

#include "SourceText.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace warpscope;

static std::vector<PathEquivalence> &equivalences() {
  static std::vector<PathEquivalence> E;
  return E;
}

void warpscope::setPathEquivalences(std::vector<PathEquivalence> E) {
  equivalences() = std::move(E);
}

std::string warpscope::localSourcePath(const std::string &File) {
  for (const PathEquivalence &E : equivalences()) {
    StringRef From = StringRef(E.From).rtrim('/');
    StringRef Rest = File;
    // A directory prefix only: /src/a never holds /src/ab.
    if (!Rest.consume_front(From) || (!Rest.empty() && Rest[0] != '/'))
      continue;
    std::string Local = StringRef(E.To).rtrim('/').str() + Rest.str();
    if (sys::fs::exists(Local))
      return Local;
  }
  return File;
}

/// The contents, or none when the file is missing or stale (its build hash
/// differs).
static std::optional<std::string> currentContents(const SourceHashes &Hashes,
                                                  const std::string &File) {
  auto Buf = MemoryBuffer::getFile(localSourcePath(File));
  if (!Buf)
    return std::nullopt;
  StringRef Contents = (*Buf)->getBuffer();
  auto It = Hashes.find(File);
  if (It != Hashes.end() && It->second != ProgramDatabase::sourceHash(Contents))
    return std::nullopt;
  return Contents.str();
}

std::vector<std::string>
warpscope::staleSourceFiles(const SourceHashes &Hashes) {
  std::vector<std::string> Stale;
  for (const auto &[File, Hash] : Hashes)
    if (auto Buf = MemoryBuffer::getFile(localSourcePath(File)))
      if (ProgramDatabase::sourceHash((*Buf)->getBuffer()) != Hash)
        Stale.push_back(File);
  return Stale;
}

const std::vector<std::string> &SourceText::lines(const std::string &File) {
  auto It = Files.find(File);
  if (It == Files.end()) {
    std::vector<std::string> Lines;
    if (std::optional<std::string> Text = currentContents(Hashes, File)) {
      SmallVector<StringRef, 0> Parts;
      StringRef(*Text).split(Parts, '\n');
      for (StringRef P : Parts)
        Lines.push_back(P.rtrim("\r").str());
    }
    It = Files.emplace(File, std::move(Lines)).first;
  }
  return It->second;
}

std::string SourceText::line(const std::string &File, unsigned Line) {
  const std::vector<std::string> &Lines = lines(File);
  if (Line == 0 || Line > Lines.size())
    return "";
  return StringRef(Lines[Line - 1]).trim().str();
}

std::string warpscope::sourceLineLabel(const std::string &File, unsigned Line) {
  if (File.empty())
    return "(no line info)";
  if (!Line)
    return File + " (no line: compiler-made code)";
  return File + ":" + std::to_string(Line);
}
