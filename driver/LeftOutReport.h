//===- LeftOutReport.h - What a run left out, in every format ---*- C++ -*-===//
//
// A profile of part of a program must say which part: the kernels
// -warpscope-kernel-filter left uninstrumented (with their launches), the
// instrumented functions whose counts include calls from those kernels,
// and the launches `warpscope run --launch-skip/--launch-count` left out.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_LEFTOUTREPORT_H
#define WARPSCOPE_DRIVER_LEFTOUTREPORT_H

#include "ProfileModel.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace warpscope {

/// One sentence per thing left out; none when nothing was.
std::vector<std::string> leftOutLines(const LeftOut &L);
/// The report's `left_out` (docs/report-schema.md).
llvm::json::Value leftOutJson(const LeftOut &L);
/// A section of the HTML page; "" when nothing was left out.
std::string leftOutHtml(const LeftOut &L);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_LEFTOUTREPORT_H
