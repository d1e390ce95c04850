//===- PtxOpcodes.h - The PTX opcode table (PtxOpcodes.def) ---------------===//
//
// One row per PTX base name: its instruction-mix class, the unit it executes
// on and its floating-point operations; and the forms that execute on
// another unit than their row's (bar.warp.sync: none, Free). The
// histograms, the advisor and the timing model read these rows and refine
// them only by modifiers, so an opcode's class is written once
// (PtxOpcodes.def).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ABI_PTXOPCODES_H
#define WARPSCOPE_ABI_PTXOPCODES_H

#include <cstdint>
#include <string_view>

namespace warpscope {

/// The instruction-mix class (docs/report-schema.md). Arith is classed by
/// type (int32 ... fp64); Divide is Special with a float type, Arith
/// otherwise.
enum class PtxMix : uint8_t {
  Memory,
  Atomic,
  Control,
  Sync,
  Warp,
  Logic,
  CompareSelect,
  Conversion,
  Move,
  Special,
  Divide,
  Arith,
  Other
};

/// Where an instruction executes (docs/timing-model.md): the timing model's
/// pipe or memory path, and the advisor's latency class.
enum class PtxUnit : uint8_t {
  Alu,       ///< fixed latency; the pipe follows the type (int, fp32, fp64)
  Free,      ///< no SASS the model counts (hints, nanosleep, free forms)
  Sfu,       ///< one MUFU instruction
  Root,      ///< rcp/sqrt/rsqrt: MUFU when .approx and not .f64, else a chain
  Divide,    ///< a chain of dependent instructions (div, rem)
  Convert,   ///< the conversion pipe
  Load,      ///< a memory read
  Store,     ///< a memory write
  Atomic,    ///< a read-modify-write in memory
  AsyncCopy, ///< cp.async: a global read and a shared write
  /// cp.async.commit_group / wait_group / wait_all: a group of the warp's
  /// copies closed, or waited for
  AsyncGroup,
  Texture, ///< the texture path
  Matrix,  ///< wmma: a load, a store or a tensor operation by modifier
  Tensor,  ///< the tensor pipe
  Shuffle, ///< a warp exchange through the MIO (as a shared access)
  Barrier, ///< a CTA barrier
  Fence,   ///< a memory fence
  Branch,  ///< a branch, call or return
  Exit     ///< the thread ends
};

enum class PtxOpcode : uint8_t {
#define WARPSCOPE_PTX_OPCODE(Id, Spelling, Mix, Unit, Flops) Id,
#include "warpscope/ABI/PtxOpcodes.def"
  Unknown ///< not in the table: Mix Other, Unit Alu
};

struct PtxOpcodeInfo {
  std::string_view Spelling;
  PtxMix Mix;
  PtxUnit Unit;
  uint8_t Flops; ///< per lane, when the type is a float
};

inline constexpr PtxOpcodeInfo PtxOpcodeTable[] = {
#define WARPSCOPE_PTX_OPCODE(Id, Spelling, Mix, Unit, Flops)                   \
  {Spelling, PtxMix::Mix, PtxUnit::Unit, Flops},
#include "warpscope/ABI/PtxOpcodes.def"
    {"", PtxMix::Other, PtxUnit::Alu, 0}};

static_assert(sizeof(PtxOpcodeTable) / sizeof(PtxOpcodeTable[0]) ==
                  static_cast<size_t>(PtxOpcode::Unknown) + 1,
              "one row per PtxOpcode, and one for Unknown");

inline const PtxOpcodeInfo &ptxOpcodeInfo(PtxOpcode Op) {
  return PtxOpcodeTable[static_cast<size_t>(Op)];
}

/// The base name of an opcode: "ld" for "ld.global.v4.f32".
inline std::string_view ptxBaseName(std::string_view Opcode) {
  return Opcode.substr(0, Opcode.find('.'));
}

/// The row of a base name, or Unknown. A linear scan: callers look up once
/// per static instruction, not per executed one.
inline PtxOpcode lookupPtxOpcode(std::string_view Base) {
  for (size_t K = 0; K < static_cast<size_t>(PtxOpcode::Unknown); ++K)
    if (PtxOpcodeTable[K].Spelling == Base)
      return static_cast<PtxOpcode>(K);
  return PtxOpcode::Unknown;
}

/// The row of a whole opcode ("ld.global.f32" -> Ld).
inline const PtxOpcodeInfo &ptxOpcodeOf(std::string_view Opcode) {
  return ptxOpcodeInfo(lookupPtxOpcode(ptxBaseName(Opcode)));
}

/// A form of a row that executes on another unit than the row's, named by
/// one of its modifiers (PtxOpcodes.def, WARPSCOPE_PTX_FORM).
struct PtxForm {
  std::string_view Spelling;
  std::string_view Modifier;
  PtxUnit Unit;
};

inline constexpr PtxForm PtxForms[] = {
#define WARPSCOPE_PTX_FORM(Spelling, Modifier, Unit)                           \
  {Spelling, Modifier, PtxUnit::Unit},
#include "warpscope/ABI/PtxOpcodes.def"
};

/// Whether Modifier is one of Opcode's '.'-separated modifiers ("warp" of
/// "bar.warp.sync"; not the base name).
inline bool ptxHasModifier(std::string_view Opcode, std::string_view Modifier) {
  size_t Start = Opcode.find('.');
  while (Start != std::string_view::npos) {
    size_t End = Opcode.find('.', Start + 1);
    if (Opcode.substr(Start + 1, End == std::string_view::npos
                                     ? std::string_view::npos
                                     : End - Start - 1) == Modifier)
      return true;
    Start = End;
  }
  return false;
}

/// The unit a whole opcode executes on: its form's (Free for bar.warp.sync,
/// AsyncGroup for cp.async.commit_group, ...) or its row's. The timing model
/// charges by it and the advisor's issue floor counts by it, so both agree
/// on which instructions issue.
inline PtxUnit ptxUnitOf(std::string_view Opcode) {
  const std::string_view Base = ptxBaseName(Opcode);
  for (const PtxForm &Form : PtxForms)
    if (Form.Spelling == Base && ptxHasModifier(Opcode, Form.Modifier))
      return Form.Unit;
  return ptxOpcodeInfo(lookupPtxOpcode(Base)).Unit;
}

} // namespace warpscope

#endif // WARPSCOPE_ABI_PTXOPCODES_H
