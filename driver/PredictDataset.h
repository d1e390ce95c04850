//===- PredictDataset.h - Reading a training dataset for `train` ---------===//
//
// A dataset is a CSV with `#` comment lines first (device, driver, date,
// commit as "# key: value"), a header, and one row per program, kernel and
// launch configuration: the columns of `warpscope features` plus `program`
// and the measured target. The format: docs/prediction.md. Every problem is
// one line naming the file (and line) and what to do.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PREDICTDATASET_H
#define WARPSCOPE_DRIVER_PREDICTDATASET_H

#include "PredictFeatures.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <vector>

namespace warpscope::predict {

/// Where the training data came from (the comment block and columns).
struct Provenance {
  std::string Device, Driver, Cuda, Date, Commit;
};

struct Dataset {
  std::string Path;
  Provenance From;
  std::vector<KernelSample> Rows;
  /// Rows left out, by reason ("complete = 0", "exact = lower-bound").
  std::map<std::string, unsigned> LeftOut;
};

/// Splits one CSV line into fields (RFC 4180 quoting, no line breaks
/// inside fields); false when a quote is not closed.
bool splitCsvLine(llvm::StringRef Line, std::vector<std::string> &Fields);

/// The columns a dataset must have for target T.
std::vector<std::string> requiredColumns(Target T);

llvm::Expected<Dataset> readDataset(const std::string &Path, Target T);

} // namespace warpscope::predict

#endif // WARPSCOPE_DRIVER_PREDICTDATASET_H
