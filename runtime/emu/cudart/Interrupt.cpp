//===- Interrupt.cpp - SIGINT and SIGTERM during an emulated launch -------===//
//
// A launch runs to completion inside cudaLaunchKernel, and the ground truth
// is written at exit: a Ctrl-C in the middle of a long launch used to lose
// both. Now the launch stops at its next branch (requestInterrupt), with the
// counts of the part that ran, and the ground truth so far is written:
//  - with the WarpScope runtime (it handles the two signals), its handler
//    calls __warpscope_emu_interrupt (Abi.h, EmuInterruptFunction); the
//    launch returns, Launch.cpp writes the truth, and the runtime writes its
//    profile and ends the process by the signal;
//  - without it (a program built without the plugin), this library handles
//    them itself where the program left their default action (installed at
//    the first launch): a running launch stops the same way, and the process
//    ends by the signal once the truth is written.
// Either way a second signal ends the process at once, and an alarm bounds
// the wait for a launch that does not stop.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include "warpscope/Support/Signals.h"
#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>
#include <unistd.h>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace {

/// Launches inside the core now.
std::atomic<int> Running{0};
/// The signal this library's own handler is handling (0: none); set before
/// it asks the launch to stop, so the launch knows who ends the process.
std::atomic<int> Handling{0};
/// How long a stopping launch, or a busy runtime, may take.
constexpr unsigned BoundSeconds = 10;

/// Writes the truth unless another thread holds the runtime for longer than
/// a moment (the thread a signal interrupted may be inside a CUDA call).
void writeTruthWhenFree() {
  State &St = S();
  auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!St.Mu.try_lock()) {
    if (std::chrono::steady_clock::now() > Until) {
      const char Msg[] = "warpscope-emu: ground truth not written: the CUDA "
                         "runtime stayed busy\n";
      ssize_t Ignored = write(STDERR_FILENO, Msg, sizeof Msg - 1);
      (void)Ignored;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  writeAllTruth(St);
  St.Mu.unlock();
}

void onAlarm(int) {
  const char Msg[] = "warpscope-emu: the interrupted launch did not stop in "
                     "time; ending without its ground truth\n";
  ssize_t Ignored = write(STDERR_FILENO, Msg, sizeof Msg - 1);
  (void)Ignored;
  warpscope::support::dieBySignal(Handling.load() ? Handling.load() : SIGTERM);
}

void onSignal(int Signal) {
  int None = 0;
  if (!Handling.compare_exchange_strong(None, Signal))
    warpscope::support::dieBySignal(None); // a second one: at once
  requestInterrupt(Signal);
  if (Running.load()) { // the launch stops; Launch.cpp ends the process
    struct sigaction Alarm = {};
    Alarm.sa_handler = onAlarm;
    sigemptyset(&Alarm.sa_mask);
    sigaction(SIGALRM, &Alarm, nullptr);
    alarm(BoundSeconds);
    return;
  }
  writeTruthWhenFree();
  warpscope::support::dieBySignal(Signal);
}

} // namespace

namespace warpscope::emu::cudart {

void installInterruptHandlers() {
  static std::atomic<bool> Installed{false};
  if (Installed.exchange(true))
    return;
  for (int Signal : {SIGINT, SIGTERM}) {
    struct sigaction Old;
    if (sigaction(Signal, nullptr, &Old) != 0 || Old.sa_handler != SIG_DFL)
      continue; // the program's, or the WarpScope runtime's
    struct sigaction New = {};
    New.sa_handler = onSignal;
    sigemptyset(&New.sa_mask);
    sigaddset(&New.sa_mask, Signal == SIGINT ? SIGTERM : SIGINT);
    sigaction(Signal, &New, nullptr);
  }
}

RunningLaunch::RunningLaunch() { ++Running; }

RunningLaunch::~RunningLaunch() { --Running; }

bool endAfterInterruptedLaunch() { return Handling.load() != 0; }

[[noreturn]] void endByInterrupt() {
  warpscope::support::dieBySignal(interruptSignal());
}

} // namespace warpscope::emu::cudart

// warpscope::EmuInterruptFunction (ABI/Abi.h). The flag goes first: a launch
// that ends between the two sees it (Launch.cpp looks after --Running).
WS_EXPORT int __warpscope_emu_interrupt(int Signal) {
  requestInterrupt(Signal);
  return Running.load() ? 1 : 0;
}

// warpscope::EmuWriteTruthFunction (ABI/Abi.h).
WS_EXPORT void __warpscope_emu_write_truth() { writeTruthWhenFree(); }
