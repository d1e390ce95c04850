#!/usr/bin/env python3
"""Plants one bug at a time in the timing model's mechanisms (issue 34),
rebuilds emu-timing-tests and runs the test meant to catch it; prints
FAILS (caught) or PASSES(!) per bug and restores each file. Exits 1 if a
bug went uncaught.

  python3 runtime/emu/timing/tests/plant_mechanism_bugs.py [--build build] [--only TEST]
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))
T = "runtime/emu/timing/"
H = "include/warpscope/Emu/TimingConfig.h"
M = "include/warpscope/Emu/TimingModel.h"
BUGS = [
    # SMs paced in modeled time (Model.cpp pace, SmSim.h, L2ShareTest.cpp).
    (T + "MemorySide.cpp", "Due = std::max(Due, *D);", "Due = 0;",
     "ALoadOfALineOnItsWayFromDramWaitsForIt"),
    (T + "MemorySide.cpp", "*Fetching[K] = std::max(*Fetching[K], Back);", "*Fetching[K] = 0;",
     "ALoadOfALineOnItsWayFromDramWaitsForIt"),
    (T + "Model.cpp", "const uint64_t Limit = Least + PaceWindow;",
     "const uint64_t Limit = Never;", "AnSmFindsALineAnotherFetchedEarlierInModeledTime"),
    (T + "SmSim.h", "uint64_t Limit = 0;", "uint64_t Limit = Never;",
     "AnSmFindsALineAnotherFetchedEarlierInModeledTime"),
    # Instruction fetch (InstFetch.cpp, InstFetchTest.cpp).
    (T + "SmSim.cpp", "if (Fetch.on() && !Fetch.warmed())", "if (false)",
     "CodeThatFitsTheWarmLinesIsUnchanged"),
    (T + "SmSim.cpp", "if (T < W.FetchUntil) { // an instruction cache miss",
     "if (false) {", "ALoopLargerThanTheCacheWaitsForItsHead"),
    (T + "InstFetch.cpp", "return std::max(Hit, E->Ready); // a fill on its way: wait for it",
     "return Hit + (uint64_t)L2Latency;", "CodeInTheL1StreamsWithoutWaiting"),
    (T + "SmSim.h", "W.FetchUntil = Fetch.fetch(W.Smsp, Line, T);", "W.FetchUntil = T;",
     "AJumpPastColdCodeWaitsOnce"),
    (T + "InstFetch.cpp", "prefetch(S, Line + Ahead, T);", "",
     "CodeInTheL1StreamsWithoutWaiting"),
    (T + "Model.cpp", "R.Cycles += R.LaunchCycles;", "",
     "LaunchOverheadIsTimeAtTheChosenClock"),
    (T + "Config.cpp", "C.ClockMhz = C.BaseClockMhz;", "C.ClockMhz = C.BoostClockMhz;",
     "LaunchOverheadIsTimeAtTheChosenClock"),
    (H, "return DramSustainedGBps * 1e3 / ClockMhz;",
     "return DramSustainedGBps * 1e3 / BoostClockMhz;", "DramBandwidthPerCycleFollowsTheClock"),
    (H, "return DramSustainedGBps * 1e3 / ClockMhz;", "return DramGBps * 1e3 / ClockMhz;",
     "DramBandwidthPerCycleFollowsTheClock"),
    (T + "MemorySide.cpp", "SI.Aggregable && M.NAtoms == 1 ? 1.0", "SI.Aggregable && M.NAtoms == 0 ? 1.0",
     "SameAddressGlobalAtomicsSerializeWithinAWarp"),
    (T + "MemorySide.cpp", "(Shared->Owners.shared(Addr, Cta) ? ActiveSms : 1.0)",
     "(Shared->Owners.shared(Addr, Cta) ? 1.0 : 1.0)",
     "AnAddressManyCtasUpdateIsSharedByEverySm"),
    (T + "MemorySide.cpp", "W = std::max<double>(W, M.SharedPasses);", "W = W + 0;",
     "SharedAtomicLanesOnOneWordArePasses"),
    (T + "MemorySide.cpp", "if (!SI.MergesLanes)", "if (true)",
     "SharedIncrementsMergeTheLanesOfAWord"),
    (T + "LoadsAhead.cpp", "if (SI.Unrolled && C.UnrolledLoads > 1)", "if (false)",
     "UnrolledLoopsHaveTheirLoadsInFlight"),
    (T + "LoadsAhead.cpp", "if ((Body && P - Last != Body) || FromLoad)",
     "if (Body && P - Last != Body)", "UnrolledLoopsHaveTheirLoadsInFlight"),
    (M, "&& Sp != Space::Shared);", "&& Sp == Space::Local);",
     "UnrolledLoopsHaveTheirLoadsInFlight"),
    (M, "&& Sp != Space::Shared);", "&& Sp == Space::Local);",
     "ABlocksLoadsGoAheadOfTheirUses"),
    (T + "LoadsAhead.cpp", "if (SI.Hoists && C.BlockLoads > 1)", "if (false)",
     "ABlocksLoadsGoAheadOfTheirUses"),
    (T + "LoadsAhead.cpp", "if (SI.Leader)", "if (false)", "ABlocksLoadsGoAheadOfTheirUses"),
    (M, "return K == Kind::Branch || K == Kind::Exit || CasLoop;",
     "return K == Kind::Branch || K == Kind::Exit;", "ABlocksLoadsGoAheadOfTheirUses"),
    (T + "LoadsAhead.cpp", "Mark[R] >> 1 == Walk", "Mark[R] >> 1 == Walk + 1",
     "ABlocksLoadsGoAheadOfTheirUses"),
    (T + "LoadsAhead.cpp", "      if (InBlock)\n        Unrolled();", "      (void)InBlock;",
     "AnUnrolledLoadSentWithItsBlockStillGoesAhead"),
    (T + "LoadsAhead.cpp", "if (Candidate && ++Sent == Want)", "if (Candidate && ++Sent == Want + 99)",
     "ABlocksLoadsGoAheadOfTheirUses"),
    (T + "MemorySide.cpp", "Done = std::max(Done, (double)L1.fill()[__builtin_ctz(B)]);", "",
     "AHitOnALineInFlightWaitsForItsFill"),
    # Compare-and-swap loops (model34e).
    (T + "MemorySide.cpp", "(LdsWavefronts - Rounds) * (1 + Pass);", "0 * (1 + Pass);",
     "FloatSharedAddIsACompareAndSwapLoop"),
    (T + "MemorySide.cpp", "for (uint64_t Lane = 0; Lane <= (Packed & 63); ++Lane) {",
     "for (uint64_t Lane = 0; Lane <= 0 * (Packed & 63); ++Lane) {",
     "FloatSharedAddIsACompareAndSwapLoop"),
    (T + "MemorySide.cpp", "const double Round = Land + C->SharedLatency +",
     "const double Round = Land +", "FloatSharedAddIsACompareAndSwapLoop"),
    (T + "MemorySide.cpp", "C->Pipes[(int)Pipe::Branch].Latency;\n  double Rounds",
     "0;\n  double Rounds", "FloatSharedAddIsACompareAndSwapLoop"),
    (T + "MemorySide.cpp", "  if (SI.CasLoop)\n    return casLoop(M, Lines, S0, Cta);",
     "  if (SI.CasLoop && Cta == ~0ull)\n    return casLoop(M, Lines, S0, Cta);",
     "FloatSharedAddIsACompareAndSwapLoop"),
    (T + "SmSim.cpp", "      W.HoldUntil = Done;", "      W.HoldUntil = 0;",
     "ACompareAndSwapLoopHoldsItsWarpAndThePipe"),
    (T + "SmSim.cpp", "if (T < W.HoldUntil) {", "if (false) {",
     "ACompareAndSwapLoopHoldsItsWarpAndThePipe"),
    (T + "MemorySide.cpp", "SharedFree = S0 + LdsWavefronts * (1 + Pass);",
     "SharedFree = S0 + (1 + Pass);", "ACompareAndSwapLoopHoldsItsWarpAndThePipe"),
    (T + "MemorySide.cpp", "LdsWavefronts += Latest[Rank];", "LdsWavefronts += 1;",
     "ACompareAndSwapLoopHoldsItsWarpAndThePipe"),
    (T + "MemorySide.cpp", "SharedFree = S0 + LdsWavefronts * (1 + Pass);",
     "SharedFree = S0 + LdsWavefronts;", "ACompareAndSwapLoopHoldsItsWarpAndThePipe"),
    (T + "MemorySide.cpp", "if (S0 + R * Round < Slot.second && Round > 0)",
     "if (false)", "AnotherWarpsStoreOnTheWordFailsTheLane"),
    (T + "MemorySide.cpp", "Slot.second = S0 + R * Round + Land;",
     "Slot.second = 0 * Land;", "AnotherWarpsStoreOnTheWordFailsTheLane"),
    (T + "MemorySide.cpp", "Filling[K].Fill[__builtin_ctz(B)] = Cycle;",
     "Filling[K].Fill[__builtin_ctz(B)] = 0;", "AHitOnALineInFlightWaitsForItsFill"),
    # Sectored caches and the L2's fetch granule (fifth pass).
    (T + "MemorySide.cpp", "Missing &= ~(unsigned)(T[K] >> SectorShift);", "Missing = 0;",
     "CachesFillSectorsNotLines"),
    (T + "MemorySide.cpp", "T[K] |= (uint64_t)Missing << SectorShift;", "T[K] |= 0;",
     "CachesFillSectorsNotLines"),
    (T + "MemorySide.cpp", "return Sectors | (Sectors & 5u) << 1 | (Sectors & 10u) >> 1;",
     "return Sectors;", "CachesFillSectorsNotLines"),
    (T + "MemorySide.cpp", "ToDram |= Dram != 0;", "ToDram |= false;",
     "CachesFillSectorsNotLines"),
    (T + "MemorySide.cpp",
     "      if (L1.fill() && NFilling < 64)\n        Filling[NFilling++] = {L1.fill(), Miss};\n    }",
     "    }\n    if (L1.fill() && NFilling < 64)\n      Filling[NFilling++] = {L1.fill(), Miss};",
     "AStoreLeavesTheFillsOfEarlierLoadsAlone"),
    (T + "MemorySide.cpp", "      Slot.second = S0 + R * Round + Land;\n      ++R;",
     "      Slot.second = S0 + R * Round + Land;", "FloatSharedAddIsACompareAndSwapLoop"),
    (T + "MemorySide.cpp", "(LdsWavefronts - Rounds) * (1 + Pass);",
     "0 * (1 + Pass);", "FloatSharedAddIsACompareAndSwapLoop"),
    (T + "MemorySide.cpp",
     "return (Line - Row * Sets + ((Row * 0x9E3779B97F4A7C15ull) >> 32)) % Sets;",
     "return (Line + 0 * Row) % Sets;", "CacheSetsAreHashed"),
    (T + "MemorySide.cpp",
     "return (Line - Row * Sets + ((Row * 0x9E3779B97F4A7C15ull) >> 32)) % Sets;",
     "return ((Line + 0 * Row) * 0x9E3779B97F4A7C15ull >> 20) % Sets;", "CacheSetsAreHashed"),
    (T + "SmSim.cpp", "W.DrainUntil = std::max(W.DrainUntil, Mem.Accepted);",
     "W.DrainUntil = std::max(W.DrainUntil, Done);",
     "StoresDrainWithoutHoldingTheWarpButEndTheLaunch"),
    (T + "SmSim.h", "return std::max(End, Mem.LastWrite);", "return End;",
     "StoresDrainWithoutHoldingTheWarpButEndTheLaunch"),
    # Divergent paths, calls and indirect branches (interp34): the core's
    # detection of a resumed path runs end to end in the modeled-samples
    # tests (a fifth member names their target).
    (T + "SmSim.cpp", "W.BranchUntil =\n      std::max(W.BranchUntil, T + (uint64_t)C.DivergenceSwitchCycles);",
     "W.BranchUntil = std::max(W.BranchUntil, T);",
     "TimingControl.AWarpResumingAnotherPathWaitsTheSwitch"),
    (T + "SmSim.cpp", "  resumePath(W, std::max(T + 1, W.BranchUntil));\n", "",
     "TimingControl.AWarpResumingAnotherPathWaitsTheSwitch"),
    (T + "SmSim.cpp", "if (SI.JumpTable && SI.NSrc) {", "if (false) {",
     "TimingControl.AJumpTableBranchWaitsForItsEntry"),
    (T + "SmSim.cpp", "(uint64_t)C.Pipes[(int)Pipe::Int].Latency +\n", "",
     "TimingControl.AJumpTableBranchWaitsForItsEntry"),
    ("runtime/emu/core/TimingSink.cpp", "if ((Active & ~Before) && (Before & ~Active))",
     "if ((Active & ~Before) && false)",
     "ModeledDivergence.ResumingTheOtherPathCostsTheSwitch",
     "warpscope-modeled-samples-tests"),
    ("runtime/emu/core/TimingSink.cpp", "if ((Active & ~Before) && (Before & ~Active))",
     "if (Active != Before)", "ModeledDivergence.AUniformBranchHasNoSwitch",
     "warpscope-modeled-samples-tests"),
    # The representative SMs' L2 (L2.cpp, L2ShareTest.cpp).
    (T + "L2.cpp", "  Tags.init(Bytes, 16);", "  Tags.init(Bytes * Sim / Active, 16);",
     "AVectorEveryCtaReadsKeepsTheWholeL2"),
    (T + "L2.cpp", "  if (Owner != GridWide) { // a second SM's: grid-wide from now on",
     "  if (false) {",
     "AVectorEveryCtaReadsKeepsTheWholeL2"),
    (T + "L2.cpp", "  Missing = fetchedHere(lineOf(Entry), Missing);", "",
     "AVectorEveryCtaReadsKeepsTheWholeL2"),
    (T + "L2.cpp", "Tags.ageBy(&Others, 1.0 / ((double)Sim * Sets),",
     "Tags.ageBy(&Others, 0.0 / ((double)Sim * Sets),", "EverySmsOwnLinesTakeTheirRoom"),
    (T + "L2.cpp", "(double)Sim / Active);", "1.0);", "AGridWideLineIsReadByTheSmsBetween"),
    (T + "L2.cpp", "    Owner = Mine;\n    Others += Theirs;", "    Owner = Mine;",
     "EverySmsOwnLinesTakeTheirRoom"),
    (T + "Model.cpp", "    if (int32_t *Left = Role(S, 1))",
     "    if (int32_t *Left = Role(S, 1); false)", "NeighbouringCtasShareTheirHalo"),
    (T + "Model.cpp", "      if (int32_t *Up = Role(S, Shape.GridX))",
     "      if (int32_t *Up = Role(S, Shape.GridX); false)",
     "NeighbouringRowsOfA2dGridShareTheirHalo"),
    (T + "Model.cpp", "        Sms[N % SimSms]->feed(T, For);", "        (void)T;",
     "NeighbouringCtasShareTheirHalo"),
    (T + "L2.cpp", "    Missing &= ~nearSectors(Sm, Cta, lineOf(Entry));", "    (void)Cta;",
     "NeighbouringCtasShareTheirHalo"),
    # Near lines of the SM's latest CTA only (the first design), or kept
    # after their CTA ended.
    (T + "L2.cpp", "  auto G = Near[Sm].find(Cta);",
     "  auto G = Cta == ~0ull || Near[Sm].empty() ? Near[Sm].find(Cta)\n"
     "                                              : std::prev(Near[Sm].end());",
     "EachCtaFindsItsOwnNeighboursLinesNear"),
    (T + "SmSim.h", "  void dropNear(uint32_t Sm, uint64_t Cta) { Near[Sm].erase(Cta); }",
     "  void dropNear(uint32_t, uint64_t) {}", "EachCtaFindsItsOwnNeighboursLinesNear"),
    (T + "MemorySide.cpp", "Load ? fetched(sectorsOf(Entry)) : sectorsOf(Entry)",
     "Load ? sectorsOf(Entry) & 1 : sectorsOf(Entry)", "NeighbouringCtasShareTheirHalo"),
    # A block's shared loads ahead (runtime/emu/core/tests/LoadsAheadTest.cpp).
    (T + "LoadsAhead.cpp", "Load && !Waits && (SI.Sp == Space::Global || !SharedKept);",
     "Load && !Waits && SI.Sp == Space::Global;",
     "ABlocksSharedLoadsGoAheadOfTheirUses", "emu-core-tests"),
    (T + "LoadsAhead.cpp", "    SharedKept |= SI.keepsSharedLoadsAfter();", "",
     "ABlocksSharedLoadsGoAheadOfTheirUses", "emu-core-tests"),
    ("runtime/emu/core/ModelCode.cpp",
     "O.movableLoad() && (O.Sp == timing::Space::Global || !SharedKept)",
     "O.movableLoad() && O.Sp == timing::Space::Global",
     "ABlocksSharedLoadsGoAheadOfTheirUses", "emu-core-tests"),
    (T + "LoadsAhead.cpp",
     "Waits || (SI.Expand && (SI.K == Kind::Load || SI.K == Kind::Atomic));",
     "SI.Expand && (SI.K == Kind::Load || SI.K == Kind::Atomic || Waits);",
     "ABlocksSharedLoadsGoAheadOfTheirUses", "emu-core-tests"),
    # What ptxas makes of PTX (runtime/emu/core/SassShape.cpp, SassShapeTest.cpp).
    (T + "SmSim.cpp", "      W.RegReady[SI.Dst[K]] = Ready;", "      W.RegReady[SI.Dst[K]] = T;",
     "AFusedMultiplyStillWaitsForItsOperand", "emu-core-tests"),
    ("runtime/emu/core/SassShape.cpp", "        Table[R.Reader[D]].Expand = 1;", "",
     "AWideMultiplyFusesIntoTheAddThatReadsIt", "emu-core-tests"),
    ("runtime/emu/core/SassShape.cpp", "R.Reads[D] == 1 && R.Writes[D] == 1", "R.Writes[D] == 1",
     "AWideMultiplyFusesIntoTheAddThatReadsIt", "emu-core-tests"),
    ("runtime/emu/core/SassShape.cpp", "InShared(D) && S.P == Pipe::Int", "InShared(D) && false && S.P == Pipe::Int",
     "SharedAddressesAreComputedIn32Bits", "emu-core-tests"),
    ("runtime/emu/core/SassShape.cpp", "          Shared[I.S[K]] = 0;\n          Changed = true;",
     "          (void)0;", "SharedAddressesAreComputedIn32Bits", "emu-core-tests"),
    ("runtime/emu/core/SassShape.cpp", "    Table[J].Expand += 2;", "    Table[J].Expand += 0;",
     "ABranchWhosePathsJoinHasAConvergenceBarrier", "emu-core-tests"),
    ("runtime/emu/core/SassShape.cpp", "    if (K == J)\n      return true;", "    if (K == J && false)\n      return true;",
     "ABranchWhosePathsJoinHasAConvergenceBarrier", "emu-core-tests"),
    ("runtime/emu/core/SassShape.cpp", "leaves(F, I.Target, Probes) || ", "",
     "ABranchWhosePathsJoinHasAConvergenceBarrier", "emu-core-tests"),
    ("runtime/emu/core/SassShape.cpp", "        Table[K].Expand += 2;", "",
     "AKernelsEntryIsTwoInstructions", "emu-core-tests"),
    ("runtime/emu/core/ModelCode.cpp", "S.Expand = To > From && tySigned(I.T2) ? 1 : 0;",
     "S.Expand = 1;", "AShiftFusesIntoTheAddAsLeaPair", "emu-core-tests"),
    (M, "    return keepsLoadsAfter() || K == Kind::Store || K == Kind::Atomic ||",
     "    return keepsLoadsAfter() || K == Kind::Store ||",
     "ABlocksSharedLoadsGoAheadOfTheirUses", "emu-core-tests"),
    # cp.async's data and groups (runtime/emu/core/tests/CpAsyncTimingTest.cpp).
    (T + "SmSim.cpp", "    W.HoldUntil = std::max(W.HoldUntil, G.done(SI));", "",
     "WaitingForACopyFromDramCostsItsLatency", "emu-core-tests"),
    (T + "SmSim.h", "K + SI.AsyncKeep < Committed.size()", "K < Committed.size()",
     "WaitGroupOneWaitsForTheOlderGroupOnly", "emu-core-tests"),
    (T + "SmSim.h", "K + SI.AsyncKeep < Committed.size()",
     "K + SI.AsyncKeep + 1 < Committed.size()",
     "WaitGroupOneWaitsForTheOlderGroupOnly", "emu-core-tests"),
    (T + "SmSim.cpp", "    G.Committed.push_back(G.Open);", "    G.Committed.push_back(0);",
     "WaitingForACopyFromDramCostsItsLatency", "emu-core-tests"),
    (T + "SmSim.cpp", "    G.Open = std::max(G.Open, Done);",
     "    G.Open = std::max(G.Open, Done);\n    W.HoldUntil = Done;",
     "WaitingForACopyFromDramCostsItsLatency", "emu-core-tests"),
    (T + "MemorySide.cpp", "if (!Store && !SI.BypassL1) {", "if (!Store) {",
     "ACgCopyBypassesTheL1", "emu-core-tests"),
    ("runtime/emu/core/Memory.cpp", "    cpAsyncTraced(Fr, I, EM);", "    (void)0;",
     "CopiesAreBoundByDramBandwidth", "emu-core-tests"),
    ("runtime/emu/core/MemCount.cpp",
     "D.GlobalSectors += timing::sectorCount(timing::sectorsOf(Lines[K]));",
     "D.GlobalSectors += 0 * Lines[K];",
     "CopiesAreBoundByDramBandwidth", "emu-core-tests"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", action="append", help="plant only the bugs of this test")
    a = ap.parse_args()
    missed = 0
    for bug in BUGS:
        f, old, new, test = bug[:4]
        target = bug[4] if len(bug) > 4 else "emu-timing-tests"
        if a.only and test not in a.only:
            continue
        p = os.path.join(ROOT, f)
        with open(p) as fh:
            orig = fh.read()
        assert orig.count(old) == 1, (f, old)
        with open(p, "w") as fh:
            fh.write(orig.replace(old, new))
        try:
            b = subprocess.run(["ninja", "-C", a.build, target],
                               capture_output=True, text=True)
            if b.returncode:
                print("%-40s build failed: %s" % (f, b.stdout[-300:]))
                missed += 1
                continue
            r = subprocess.run([os.path.join(a.build, "bin", target),
                                "--gtest_filter=" + (test if "." in test
                                                     else "*." + test)],
                               capture_output=True, text=True)
            missed += r.returncode == 0
            print("%-28s %-48s -> %s" % (os.path.basename(f), test,
                                         "FAILS" if r.returncode else "PASSES(!)"))
        finally:
            with open(p, "w") as fh:
                fh.write(orig)
    subprocess.run(["ninja", "-C", a.build, "emu-timing-tests", "emu-core-tests",
                    "warpscope-modeled-samples-tests"], capture_output=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
