//===- CsvReport.h - CSV per kernel and per block -------------*- C++ -*-===//
//
// `warpscope report --format csv --csv-rows kernels|blocks` (the per-branch
// table is renderCsv in ReportFormats.h): flat tables for spreadsheets and
// CI dashboards, one header row, fields quoted as csvField does.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_CSVREPORT_H
#define WARPSCOPE_DRIVER_CSVREPORT_H

#include "Report.h"

namespace warpscope {

/// One row per function that ran: launches, executions, efficiencies and
/// branch totals.
void renderCsvKernels(const std::vector<FunctionSummary> &S,
                      llvm::raw_ostream &OS);
/// One row per basic block (not thread block) of each function that ran.
void renderCsvBlocks(const std::vector<FunctionSummary> &S,
                     llvm::raw_ostream &OS);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_CSVREPORT_H
