//===- PlainBuild.h - The instrumented build against the plain program ----===//
//
// WarpScope's instruction counts describe the instrumented build's own PTX
// (probes left out). Where the probes still changed code generation, the
// plain build's PTX (what clang makes without the plugin) differs: per
// function, how far the two are apart, and the plain program's histogram
// (its PTX on the same blocks, counts from the instrumented run) when its
// blocks map one to one (docs/design.md, "The plain build's histogram").
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PLAINBUILD_H
#define WARPSCOPE_DRIVER_PLAINBUILD_H

#include "InstructionMix.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace warpscope {

/// How the report labels the plain build's numbers.
inline constexpr const char *PlainLabel =
    "plain build, counts from the instrumented run";

struct PlainComparison {
  enum StatusTy {
    Unavailable, ///< no plain PTX or no histograms: Why
    Same,        ///< same PTX as the instrumented build's own instructions
    Mapped,      ///< different PTX, blocks map one to one
    NotMapped    ///< different blocks: Why
  } Status = Unavailable;
  std::string Why;
  /// Same, Mapped: the plain program's instructions.
  InstructionMix Plain;
  /// Thread-level: instrumented build's own / plain; and the distance
  /// sum over opcodes of |instrumented - plain| / plain total.
  double Ratio = 1, Distance = 0;
  uint64_t Own = 0; ///< the instrumented build's own thread instructions
  struct Difference {
    std::string Opcode;
    uint64_t Instrumented = 0, Plain = 0;
  };
  /// Thread-level, every opcode whose counts differ, largest first.
  std::vector<Difference> Differences;
  bool hasHistogram() const { return Status == Same || Status == Mapped; }
};

/// F as the plain build: its blocks' counts with the plain build's PTX;
/// none when its blocks do not map (or there is no plain PTX).
std::optional<FunctionProfile> plainProfile(const FunctionProfile &F);

/// F's plain build against Own, F's instruction mix.
PlainComparison comparePlain(const FunctionProfile &F,
                             const InstructionMix &Own);

/// One line (more with Histogram: the plain program's per-opcode counts).
void renderPlainText(const PlainComparison &C, bool Histogram,
                     llvm::raw_ostream &OS);
/// The report's `plain_build` object (docs/report-schema.md).
llvm::json::Object plainJson(const PlainComparison &C);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PLAINBUILD_H
