//===- RunLog.cpp - The runs a profile directory holds --------------------===//

#include "RunLog.h"
#include "warpscope/ABI/Files.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <ctime>
#include <map>

using namespace llvm;
using namespace warpscope;

static std::string logPath(const std::string &Dir) {
  SmallString<256> P(Dir);
  sys::path::append(P, files::RunLog);
  return std::string(P);
}

static bool knownMode(StringRef M) {
  return M == "fresh" || M == "append" || M == "force" || M == "unrecorded";
}

/// One line of the log, or why it is none.
static Expected<RunRecord> parseRecord(StringRef Line) {
  Expected<json::Value> V = json::parse(Line);
  if (!V)
    return V.takeError();
  const json::Object *O = V->getAsObject();
  if (!O || O->getString("schema") != StringRef(schema::RunLog))
    return createStringError("has no schema '" + Twine(schema::RunLog) + "'");
  RunRecord R;
  R.Mode = O->getString("mode").value_or("").str();
  if (!knownMode(R.Mode))
    return createStringError("has mode '" + R.Mode +
                             "', not fresh, append, force or unrecorded");
  R.Start = O->getString("start").value_or("").str();
  R.Pid = long(O->getInteger("pid").value_or(0));
  if (const json::Value *Rank = O->get("rank"); Rank && !Rank->getAsNull()) {
    std::optional<int64_t> N = Rank->getAsInteger();
    if (!N || *N < 0 || *N > INT32_MAX)
      return createStringError("has a rank that is no non-negative integer");
    R.Rank = int(*N);
  }
  if (const json::Array *C = O->getArray("command"))
    for (const json::Value &A : *C)
      R.Command.push_back(A.getAsString().value_or("").str());
  return R;
}

Expected<std::vector<RunRecord>> warpscope::readRunLog(const std::string &Dir) {
  std::string Path = logPath(Dir);
  std::vector<RunRecord> Runs;
  if (!sys::fs::exists(Path))
    return Runs;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Path + ": cannot be read (" +
                             Buf.getError().message() + ")");
  SmallVector<StringRef> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (size_t I = 0; I < Lines.size(); ++I) {
    Expected<RunRecord> R = parseRecord(Lines[I]);
    if (!R)
      return createStringError(Path + ": line " + Twine(I + 1) +
                               " is not a run record (" +
                               toString(R.takeError()) + ")");
    Runs.push_back(std::move(*R));
  }
  return Runs;
}

Error warpscope::appendRunLog(const std::string &Dir, const RunRecord &R) {
  std::string Path = logPath(Dir);
  json::Array Command;
  for (const std::string &A : R.Command)
    Command.push_back(A);
  json::Object O{{"schema", schema::RunLog},
                 {"mode", R.Mode},
                 {"start", R.Start},
                 {"pid", int64_t(R.Pid)},
                 {"command", std::move(Command)}};
  if (R.Rank)
    O["rank"] = int64_t(*R.Rank);
  std::error_code EC;
  // One write() of the whole line to a file opened O_APPEND: the ranks of
  // one job append to the log together, and their lines stay whole.
  std::string Line;
  raw_string_ostream(Line) << json::Value(std::move(O)) << "\n";
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Append | sys::fs::OF_Text);
  if (EC)
    return createStringError("cannot write '" + Path + "': " + EC.message());
  OS.SetUnbuffered();
  OS << Line;
  OS.close();
  if (OS.has_error())
    return createStringError("cannot write '" + Path +
                             "': " + OS.error().message());
  return Error::success();
}

std::string warpscope::runStartTime() {
  std::time_t Now = std::time(nullptr);
  std::tm Utc;
  char Buf[32];
  if (!gmtime_r(&Now, &Utc) ||
      !std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", &Utc))
    return "";
  return Buf;
}

std::optional<std::string>
warpscope::mergedRunsNote(const std::vector<RunRecord> &Runs) {
  // Per rank (none: the runs no launcher ranked), its records.
  // A rank's run that found none of its own results ("fresh": its earlier
  // runs left none) or replaced them ("force") starts its count again (the
  // log itself is the ranks' to share, so it stays).
  std::map<std::optional<int>, size_t> PerRank;
  for (const RunRecord &R : Runs)
    PerRank[R.Rank] =
        R.Mode == "force" || R.Mode == "fresh" ? 1 : PerRank[R.Rank] + 1;
  size_t Merged = 0;
  for (const auto &[Rank, N] : PerRank)
    Merged = std::max(Merged, N);
  if (PerRank.size() > 1 && PerRank.count(std::nullopt))
    Merged = std::max<size_t>(Merged, 2);
  if (Merged < 2)
    return std::nullopt;
  return std::to_string(Merged) +
         " runs merged (--append): counts, launches and samples add up over "
         "all of them (" +
         files::RunLog + " lists each run)";
}
