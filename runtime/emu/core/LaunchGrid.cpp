//===- LaunchGrid.cpp - a launch's CTAs on the worker threads -------------===//
//
// runGrid runs the CTAs of one launch on up to WARPSCOPE_EMU_THREADS workers
// (WorkerPool.h; a 1-CTA grid or 1 thread stays on the caller). Each worker
// has its own Launcher (warps, shared and local memory of the CTA it runs)
// and its own counters; CTAs are handed out in index order by an atomic
// counter. What the program sees does not depend on the thread count:
//  - counters are added into the Functions after the launch (Exec.h);
//  - printf output is collected per CTA and written in CTA order as soon as
//    all lower CTAs finished (OrderedOutput);
//  - the error reported is that of the lowest-index failing CTA: after a
//    failure no higher CTA starts, and all lower ones still run to the end
//    (with one thread, exactly the CTAs that ran before);
//  - after requestInterrupt no CTA starts; the running ones may finish
//    within InterruptGrace, and those still running then stop at a branch
//    (Launcher::checkWatchdog): the launch fails as Interrupted with the
//    counts of what ran, whatever CTA noticed first. The probes' counts of
//    a CTA stopped part way are partial (a loop's are added at its exit),
//    the finished CTAs' exact.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "WorkerPool.h"
#include "warpscope/Support/Demangle.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>

namespace warpscope::emu::core {

namespace {

constexpr uint64_t NoCta = std::numeric_limits<uint64_t>::max();

/// requestInterrupt's signal (0: none); lock-free, so a handler may set it.
std::atomic<int> Interrupt{0};
static_assert(std::atomic<int>::is_always_lock_free);
/// When a worker first saw it (steady clock, ns; 0: not yet).
std::atomic<int64_t> InterruptSeen{0};
/// How long running CTAs may take to finish after an interrupt.
constexpr std::chrono::seconds InterruptGrace{2};

/// With WARPSCOPE_EMU_PROGRESS=<seconds> (`warpscope run` sets 2), a launch
/// running longer than that reports its blocks done on stderr that often,
/// with the time it has left at the rate so far.
class LaunchProgress {
public:
  LaunchProgress(const std::string &Kernel, uint64_t Blocks, double Seconds)
      : Blocks(Blocks), Start(std::chrono::steady_clock::now()), Last(Start) {
    Enabled = Seconds > 0;
    if (Enabled)
      Name = withDemangledNames(Kernel);
    Interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(Seconds));
  }
  // Any worker, after each CTA: one clock read per CTA is negligible; a
  // worker finding another one reporting skips.
  void tick(uint64_t Done) {
    if (!Enabled)
      return;
    std::unique_lock<std::mutex> L(Mu, std::try_to_lock);
    if (!L.owns_lock())
      return;
    auto Now = std::chrono::steady_clock::now();
    if (Now - Last < Interval)
      return;
    Last = Now;
    double Secs = std::chrono::duration<double>(Now - Start).count();
    double Left = Secs * double(Blocks - Done) / double(Done);
    char Eta[48] = "";
    if (Done < Blocks)
      std::snprintf(Eta, sizeof Eta,
                    Left < 120 ? ", about %.0f s left"
                               : ", about %.0f min left",
                    Left < 120 ? Left : Left / 60);
    std::fprintf(stderr, "warpscope-emu: %s: %llu/%llu blocks, %.0f s%s\n",
                 Name.c_str(), (unsigned long long)Done,
                 (unsigned long long)Blocks, Secs, Eta);
  }

private:
  std::string Name; // demangled
  uint64_t Blocks;
  std::chrono::steady_clock::time_point Start, Last;
  std::chrono::steady_clock::duration Interval{};
  bool Enabled = false;
  std::mutex Mu;
};

/// Printf output and the first failure, in CTA order.
class OrderedOutput {
public:
  /// CTA Cta finished (Error: it failed) with printf output Text.
  void finish(uint64_t Cta, std::string Text, const EmuError *Error) {
    std::lock_guard<std::mutex> L(Mu);
    if (Error && Cta < FailCta.load()) {
      FailCta = Cta;
      Fail = *Error;
    }
    if (Cta > FailCta.load())
      return; // after the failure: with one thread it would not have run
    Pending.emplace(Cta, std::move(Text));
    // Write every CTA whose predecessors are all written.
    for (auto It = Pending.begin();
         It != Pending.end() && It->first == Next && Next <= FailCta.load();
         It = Pending.erase(It), ++Next)
      emitPrintf(It->second);
  }
  /// The lowest failing CTA so far (NoCta: none); no higher CTA may start.
  std::atomic<uint64_t> FailCta{NoCta};
  EmuError Fail;

private:
  std::mutex Mu;
  std::map<uint64_t, std::string> Pending;
  uint64_t Next = 0;
};

} // namespace

void runGrid(ModuleImpl &M, Function &K, const LaunchParams &P,
             LaunchRecord &Rec) {
  const uint64_t Total = (uint64_t)P.Grid.X * P.Grid.Y * P.Grid.Z;
  // Racecheck's shadow of shared memory is the module's, one CTA at a time.
  const unsigned N =
      M.RaceCheck ? 1u : (unsigned)std::min<uint64_t>(M.Threads, Total);
  while (M.Workers.size() < N)
    M.Workers.push_back(std::make_unique<WorkerCounters>());
  std::vector<std::unique_ptr<Launcher>> Ls(N);
  LaunchProgress Progress(K.Name, Total, M.ProgressSeconds);
  std::optional<std::chrono::steady_clock::time_point> Deadline;
  if (M.TimeoutSeconds > 0)
    Deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(M.TimeoutSeconds));
  BlockReports Reports(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(M.ProgressSeconds)));
  OrderedOutput Output;
  std::atomic<uint64_t> NextCta{0}, Done{0}, Stopped{0};
  auto Work = [&](unsigned W) {
    EmuError Error;
    for (;;) {
      if (Interrupt.load(std::memory_order_relaxed))
        return;
      uint64_t Cta = NextCta.fetch_add(1);
      if (Cta >= Total || Cta > Output.FailCta.load())
        return;
      bool Failed = true;
      try {
        if (!Ls[W]) { // a worker that finds no CTA left allocates nothing
          Ls[W] = std::make_unique<Launcher>(
              M, K, P, *M.Workers[W],
              W < M.TraceSinks.size() ? M.TraceSinks[W] : nullptr);
          Ls[W]->setup();
          Ls[W]->Deadline = Deadline;
          Ls[W]->Reports = &Reports;
          if (M.ProgressSeconds > 0)
            Ls[W]->ProgressEvery =
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(M.ProgressSeconds));
        }
        Ls[W]->runCta(Cta);
        Failed = false;
      } catch (EmuError &E) {
        Error = std::move(E);
        Stopped += Error.Fault == LaunchFault::Interrupted;
      } catch (std::bad_alloc &) {
        Error = {"kernel " + K.Name + ": out of host memory"};
      } catch (std::exception &E) {
        Error = {"kernel " + K.Name + ": internal error: " + E.what()};
      }
      std::string Text;
      if (Ls[W]) {
        Text = std::move(Ls[W]->Out);
        Ls[W]->Out.clear();
      }
      Output.finish(Cta, std::move(Text), Failed ? &Error : nullptr);
      if (!Failed)
        Progress.tick(++Done);
    }
  };
  WorkerPool::instance().run(N, Work);
  for (unsigned W = 0; W < N; ++W)
    M.Workers[W]->flushInto(*M.PM);
  Rec.StaticShared = K.Shared.StaticBytes;
  Rec.DynamicOffset = K.Shared.DynOff;
  for (const std::unique_ptr<Launcher> &L : Ls)
    if (L)
      Rec.SharedTouched = std::max(Rec.SharedTouched, L->sharedTouched());
  bool Interrupted = Output.FailCta.load() != NoCta
                         ? Output.Fail.Fault == LaunchFault::Interrupted
                         : Done.load() < Total && interruptSignal();
  if (Interrupted) {
    Rec.Interrupted = true;
    Rec.BlocksFinished = Done.load();
    Rec.BlocksStopped = Stopped.load();
    throw EmuError{"kernel " + K.Name + " interrupted by signal " +
                       std::to_string(interruptSignal()) + " after " +
                       std::to_string(Done.load()) + " of " +
                       std::to_string(Total) + " blocks finished" +
                       (Stopped.load()
                            ? "; " + std::to_string(Stopped.load()) +
                                  " stopped part way, with partial counts"
                            : "; its counts are those of the finished blocks"),
                   LaunchFault::Interrupted};
  }
  if (Output.FailCta.load() != NoCta)
    throw Output.Fail;
}

} // namespace warpscope::emu::core

void warpscope::emu::requestInterrupt(int Signal) {
  int None = 0;
  warpscope::emu::core::Interrupt.compare_exchange_strong(None,
                                                          Signal ? Signal : -1);
}

int warpscope::emu::interruptSignal() {
  return warpscope::emu::core::Interrupt.load(std::memory_order_relaxed);
}

bool warpscope::emu::core::interruptGraceOver() {
  int64_t Now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  int64_t None = 0;
  InterruptSeen.compare_exchange_strong(None, Now);
  return Now - InterruptSeen.load() >=
         std::chrono::nanoseconds(InterruptGrace).count();
}
