//===- ProbesImpl.h - What the probe builders share -------------*- C++ -*-===//
//
// The inline-PTX probe builders of Probes.h, one kind of probe per file:
// ProbeAsm.cpp holds what they share (the inline asm call, the target's
// features, the marker, the prologue, the replica address, the leader's
// popc and add), Probes.cpp the probes that count in memory at blocks and
// two-way branches (with the function's replica base, loop-entry probes and
// derived blocks' markers), SwitchProbes.cpp those at switches,
// PromotedProbes.cpp loop counters in the leaders' 64-bit registers,
// LaneCounters.cpp the lane-local 32-bit ones. Private to those files.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PROBESIMPL_H
#define WARPSCOPE_PASSES_PROBESIMPL_H

#include "Probes.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <utility>

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace warpscope::probes {

/// "%ws_block_3_branch_7" and "ws:block 3 ws:branch 7" for a spec.
std::pair<std::string, std::string> markerNames(const ProbeSpec &S);

/// The marker first (tools find our instructions by it; the comment is for
/// people reading -S output, since PTX loses comments in a fatbin), then the
/// scoped registers and the leader election.
std::string probePrologue(const ProbeSpec &S, bool Elect = true);

/// The base address of the replica a probe adds to: the array's symbol, so
/// the probe needs no address register (none computed outside its scope),
/// or with replicas %wsg, which replicaBase computes.
std::string base(const CounterArray &C);

/// "[base+Byte]": a counter of the replica the probe adds to.
std::string at(const CounterArray &C, uint64_t Byte);

/// With replicas: %wsg = the array + (%clock mod replicas) * replica size,
/// for every lane (switch probes add from lanes other than the leader).
/// The clock's low bits differ between warps that reach the probe in
/// different cycles, which is enough to spread their adds; any choice
/// keeps the counts exact, since the runtime sums the replicas.
std::string replicaBase(const CounterArray &C, llvm::StringRef Operand = "");

/// The inline asm constraint of the function's replica operand.
llvm::StringRef baseConstraint(const CounterArray &C);

/// Leader adds popc(Mask) to the counter at Addr (all three instructions
/// the leader's alone, or with S.UnpredicatedTemps only the atomic: a
/// predicated definition keeps the register's old value live where the
/// predicate is false, and ptxas then holds the probe's temporaries through
/// the whole probe: interp's two switch probes cost it 9 of its 42
/// registers).
std::string addPopcount(const ProbeSpec &S, llvm::StringRef Mask,
                        llvm::StringRef Addr, llvm::StringRef Pred = "%wsp");

/// emitProbe for a switch (more than two successors; SwitchProbes.cpp): it
/// passes no condition through.
void emitSwitchProbe(llvm::Instruction *InsertBefore,
                     const CounterArray &Counters, const ProbeSpec &S);

} // namespace warpscope::probes

#endif // WARPSCOPE_PASSES_PROBESIMPL_H
