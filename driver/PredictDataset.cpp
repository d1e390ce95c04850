//===- PredictDataset.cpp - Reading a training dataset for `train` -------===//

#include "PredictDataset.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::predict;

bool predict::splitCsvLine(StringRef Line, std::vector<std::string> &Fields) {
  Fields.clear();
  std::string Cur;
  bool Quoted = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (Quoted) {
      if (C == '"' && I + 1 < Line.size() && Line[I + 1] == '"') {
        Cur += '"';
        ++I;
      } else if (C == '"') {
        Quoted = false;
      } else {
        Cur += C;
      }
    } else if (C == '"') {
      Quoted = true;
    } else if (C == ',') {
      Fields.push_back(std::move(Cur));
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  Fields.push_back(std::move(Cur));
  return !Quoted;
}

static const char *targetColumn(Target T) {
  return T == Target::Time ? "time_ns_mean" : "power_w";
}

std::vector<std::string> predict::requiredColumns(Target T) {
  return {"program",
          "kernel",
          "grid_x",
          "grid_y",
          "grid_z",
          "block_x",
          "block_y",
          "block_z",
          "launches",
          "warp_instructions",
          "sync",
          "global_bytes",
          "shared_bytes_moved",
          "simd_efficiency",
          "branch_efficiency",
          "exact",
          targetColumn(T)};
}

namespace {

/// One data line, by column name.
struct Line {
  const std::map<std::string, size_t> &Columns;
  const std::vector<std::string> &Cells;
  std::string Where; ///< "file:line"

  bool has(StringRef Col) const { return Columns.count(Col.str()); }
  StringRef cell(StringRef Col) const {
    auto It = Columns.find(Col.str());
    if (It == Columns.end() || It->second >= Cells.size())
      return "";
    return StringRef(Cells[It->second]).trim();
  }
  /// A finite, non-negative number; NaN for an empty cell when Optional.
  Expected<double> number(StringRef Col, bool Optional = false) const {
    StringRef S = cell(Col);
    if (S.empty()) {
      if (Optional)
        return NAN;
      return createStringError(Where + ": column '" + Col +
                               "' is empty; every row needs it (rows "
                               "without features belong out of the dataset "
                               "or marked complete = 0)");
    }
    std::string Text = S.str();
    char *End = nullptr;
    double V = std::strtod(Text.c_str(), &End);
    if (End != Text.c_str() + Text.size() || !std::isfinite(V) || V < 0)
      return createStringError(Where + ": column '" + Col + "' is '" + S +
                               "', not a finite non-negative number; fix "
                               "or remove the row");
    return V;
  }
};

/// "# key: value" lines of the comment block.
void readComment(StringRef Text, Provenance &P) {
  Text = Text.drop_front().trim();
  auto [Key, Value] = Text.split(':');
  Key = Key.trim();
  Value = Value.trim();
  if (Key.equals_insensitive("device"))
    P.Device = Value.str();
  else if (Key.equals_insensitive("driver"))
    P.Driver = Value.str();
  else if (Key.equals_insensitive("cuda"))
    P.Cuda = Value.str();
  else if (Key.equals_insensitive("date"))
    P.Date = Value.str();
  else if (Key.equals_insensitive("commit"))
    P.Commit = Value.str();
}

double ratio(double N, double D) {
  return std::isfinite(N) && std::isfinite(D) && D > 0 ? N / D : NAN;
}

/// One row into S; a reason in Skip when the row is left out.
Error readRow(const Line &L, Target T, KernelSample &S, std::string &Skip) {
  if (L.has("complete") && L.cell("complete") == "0") {
    Skip = "complete = 0 (not every launch measured)";
    return Error::success();
  }
  if (L.cell("exact") != "yes") {
    Skip = "exact = " + L.cell("exact").str() + " (counts not exact)";
    return Error::success();
  }
  S.Program = L.cell("program").str();
  S.Kernel = L.cell("kernel").str();
  S.SizeTag = L.cell("size_tag").str();
  if (S.Program.empty())
    return createStringError(L.Where +
                             ": column 'program' is empty; every row needs "
                             "the program it was measured in");
  const char *Dims[2][3] = {{"grid_x", "grid_y", "grid_z"},
                            {"block_x", "block_y", "block_z"}};
  for (int K = 0; K < 3; ++K) {
    for (int G = 0; G < 2; ++G) {
      Expected<double> V = L.number(Dims[G][K]);
      if (!V)
        return V.takeError();
      if (*V < 1)
        return createStringError(L.Where + ": column '" + Dims[G][K] +
                                 "' is 0; a launch has at least 1");
      (G ? S.Block : S.Grid)[K] = uint64_t(*V);
    }
  }
  struct {
    const char *Col;
    double *Dst;
    bool Optional;
  } Nums[] = {{"warp_instructions", &S.WarpInstructions, false},
              {"total_instructions", &S.ThreadInstructions, true},
              {"sync", &S.Sync, false},
              {"global_bytes", &S.GlobalBytes, false},
              {"shared_bytes_moved", &S.SharedBytesMoved, false},
              {"simd_efficiency", &S.SimdEfficiency, true},
              {"branch_efficiency", &S.BranchEfficiency, true},
              {"modeled_cycles", &S.ModeledCycles, true}};
  for (auto &N : Nums) {
    Expected<double> V = L.number(N.Col, N.Optional);
    if (!V)
      return V.takeError();
    *N.Dst = *V;
  }
  // The launches' fixed cost within the modeled cycles (timing models that
  // have one): the SM's cycles only, as Prediction.cpp takes them.
  if (Expected<double> LC = L.number("modeled_launch_cycles", true); !LC)
    return LC.takeError();
  else if (std::isfinite(*LC) && std::isfinite(S.ModeledCycles))
    S.ModeledCycles -= *LC;
  Expected<double> Launches = L.number("launches");
  if (!Launches)
    return Launches.takeError();
  if (*Launches < 1)
    return createStringError(L.Where + ": column 'launches' is 0");
  S.Launches = uint64_t(*Launches);
  Expected<double> Shared = L.number("shared_bytes", true);
  if (!Shared)
    return Shared.takeError();
  S.SharedBytes = std::isfinite(*Shared) ? uint64_t(*Shared) : 0;
  S.ModeledConfig = L.cell("modeled_config").str();
  S.ModeledFingerprint = L.cell("modeled_fingerprint").str();
  double Mem[6];
  const char *MemCols[] = {"global_sectors",    "global_ideal_sectors",
                           "shared_wavefronts", "shared_ideal_wavefronts",
                           "atomic_addresses",  "truth_warp_instructions"};
  for (int K = 0; K < 6; ++K) {
    Expected<double> V = L.number(MemCols[K], true);
    if (!V)
      return V.takeError();
    Mem[K] = *V;
  }
  S.SectorRatio = ratio(Mem[0], Mem[1]);
  S.BankConflictRatio = ratio(Mem[2], Mem[3]);
  S.AtomicDensity = ratio(Mem[4], Mem[5]);
  // The target: per launch, finite and positive.
  StringRef TC = targetColumn(T);
  Expected<double> V = L.number(TC);
  if (!V)
    return V.takeError();
  if (*V <= 0)
    return createStringError(L.Where + ": column '" + TC +
                             "' is 0; a measured " + targetName(T) +
                             " is positive: fix or remove the row");
  S.Measured = T == Target::Time ? *V / 1000.0 : *V;
  return Error::success();
}

} // namespace

Expected<Dataset> predict::readDataset(const std::string &Path, Target T) {
  auto Fail = [&](const Twine &Msg) {
    return createStringError(Path + ": " + Msg);
  };
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return Fail("cannot read (" + Buf.getError().message() + ")");
  Dataset D;
  D.Path = Path;
  SmallVector<StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  size_t I = 0;
  for (; I < Lines.size(); ++I) {
    StringRef Text = Lines[I].rtrim("\r");
    if (!Text.starts_with("#"))
      break;
    readComment(Text, D.From);
  }
  std::vector<std::string> Header;
  if (I == Lines.size() || !splitCsvLine(Lines[I].rtrim("\r"), Header) ||
      Header.size() < 2)
    return Fail("has no CSV header after its comment lines");
  std::map<std::string, size_t> Columns;
  for (size_t K = 0; K < Header.size(); ++K)
    Columns[StringRef(Header[K]).trim().str()] = K;
  std::vector<std::string> Missing;
  for (const std::string &C : requiredColumns(T))
    if (!Columns.count(C))
      Missing.push_back(C);
  if (!Columns.count("device") && D.From.Device.empty())
    Missing.push_back("device (or a '# device:' comment line)");
  if (!Missing.empty())
    return Fail("lacks the column" + Twine(Missing.size() > 1 ? "s " : " ") +
                join(Missing, ", ") +
                "; docs/prediction.md lists what a dataset needs");
  std::set<std::string> Devices;
  std::vector<std::string> Cells;
  for (++I; I < Lines.size(); ++I) {
    StringRef Text = Lines[I].rtrim("\r");
    if (Text.trim().empty() || Text.starts_with("#"))
      continue;
    std::string Where = formatv("{0}:{1}", Path, I + 1).str();
    if (!splitCsvLine(Text, Cells))
      return createStringError(Where + ": a quoted field is not closed");
    Line L{Columns, Cells, Where};
    KernelSample S;
    std::string Skip;
    if (Error E = readRow(L, T, S, Skip))
      return E;
    if (!Skip.empty()) {
      ++D.LeftOut[Skip];
      continue;
    }
    if (L.has("device") && !L.cell("device").empty())
      Devices.insert(L.cell("device").str());
    Expected<double> Cycles = L.number("sm_cycles_elapsed_max_mean", true);
    Expected<double> Ns = L.number("time_ns_mean", true);
    if (Cycles && Ns && std::isfinite(*Cycles) && std::isfinite(*Ns) &&
        *Ns >= 100000)
      S.MeasuredClockMhz = *Cycles / *Ns * 1000.0;
    if (!Cycles)
      consumeError(Cycles.takeError());
    if (!Ns)
      consumeError(Ns.takeError());
    D.Rows.push_back(std::move(S));
  }
  if (Devices.size() > 1)
    return Fail("mixes devices (" + join(Devices, ", ") +
                "); a model is for one GPU: split the dataset by device");
  if (Devices.size() == 1)
    D.From.Device = *Devices.begin();
  if (D.Rows.empty())
    return Fail("has no usable row (every row was left out or there are "
                "none)");
  return D;
}
