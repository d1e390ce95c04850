//===- InstructionClasses.h - What a PTX opcode does, in portable terms ---===//
//
// Classes for instruction mixes (CUDA Flux / HyPA / GPU Mangrove style),
// floating-point operations and bytes moved, from the opcode alone.
// Conventions (docs/report-schema.md): FLOPs count add/sub/mul/min/max as 1,
// fma/mad as 2, div/rcp/sqrt/rsqrt as 1, per lane, twice for packed
// f16x2/bf16x2; bytes are per lane: vector width x type size.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PTX_INSTRUCTIONCLASSES_H
#define WARPSCOPE_PTX_INSTRUCTIONCLASSES_H

#include <string>

namespace warpscope::ptx {

enum class FloatWidth { None, Half, Single, Double };

struct InstructionInfo {
  /// int32, int64, int16, int8, fp16, fp32, fp64 (arithmetic by type),
  /// special, logic, compare_select, conversion, move, control, sync, warp,
  /// atomic, memory, other.
  std::string Class;
  /// memory and atomic: global, shared, local, param, const, generic.
  std::string Space;
  unsigned BytesPerLane = 0; ///< memory and atomic
  unsigned FlopsPerLane = 0;
  FloatWidth Flop = FloatWidth::None;
};

InstructionInfo classify(const std::string &Opcode);

} // namespace warpscope::ptx

#endif // WARPSCOPE_PTX_INSTRUCTIONCLASSES_H
