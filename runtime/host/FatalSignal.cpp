//===- FatalSignal.cpp - Flush once on a fatal signal, never hang ---------===//

#include "FatalSignal.h"
#include <atomic>
#include <csignal>
#include <initializer_list>
#include <unistd.h>

using namespace warpscope::rt;

namespace {

/// The signal being handled (0: none yet), the flush to call, its bound.
std::atomic<int> Handling{0};
void (*FlushFn)(int) = nullptr;
bool (*DeferFn)(int) = nullptr;
unsigned BoundSeconds = 5;
/// The signal whose flush a launching thread does (0: none).
std::atomic<int> Deferred{0};

void say(const char *Text) {
  size_t N = 0;
  while (Text[N])
    ++N;
  ssize_t Ignored = write(STDERR_FILENO, Text, N);
  (void)Ignored;
}

/// The flush outlived its bound: whatever it waits for, the interrupted
/// code holds. The profile stays as it was (profiles are renamed into
/// place only when complete).
void onFlushTimeout(int) {
  say("warpscope: profile not written: the flush after a fatal signal did "
      "not finish in time\n");
  dieBySignal(Handling.load());
}

void armAlarm(void (*Handler)(int)) {
  struct sigaction Alarm = {};
  Alarm.sa_handler = Handler;
  sigemptyset(&Alarm.sa_mask);
  sigaction(SIGALRM, &Alarm, nullptr);
  sigset_t Set; // the program may block SIGALRM; the bound must not be
  sigemptyset(&Set);
  sigaddset(&Set, SIGALRM);
  sigprocmask(SIG_UNBLOCK, &Set, nullptr);
  alarm(BoundSeconds);
}

[[noreturn]] void flushAndDie(int Signal) {
  armAlarm(onFlushTimeout);
  if (FlushFn)
    FlushFn(Signal);
  alarm(0);
  dieBySignal(Signal);
}

/// The deferred flush did not come: the launch did not stop in time.
void onDeferredTimeout(int) {
  say("warpscope: the interrupted launch did not stop in time; writing the "
      "profile without it\n");
  flushAndDie(Handling.load());
}

void onFatalSignal(int Signal) {
  int First = 0;
  if (!Handling.compare_exchange_strong(First, Signal))
    dieBySignal(First); // a fatal signal while flushing: no second flush
  if ((Signal == SIGINT || Signal == SIGTERM) && DeferFn && DeferFn(Signal)) {
    Deferred = Signal;
    armAlarm(onDeferredTimeout);
    return;
  }
  flushAndDie(Signal);
}

} // namespace

int warpscope::rt::fatalSignalBeingHandled() { return Handling.load(); }

int warpscope::rt::deferredSignal() { return Deferred.load(); }

void warpscope::rt::finishDeferredSignal() { flushAndDie(Deferred.load()); }

void warpscope::rt::installFatalSignalHandlers(void (*Flush)(int),
                                               unsigned Seconds,
                                               bool (*Defer)(int)) {
  FlushFn = Flush;
  DeferFn = Defer;
  BoundSeconds = Seconds ? Seconds : 1;
  // The crash signals too (issue 19): a host crash keeps what was counted.
  // Raised by a crash inside the flush, they are blocked, so the kernel
  // ends the process at once.
  for (int S : {SIGINT, SIGTERM, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
    struct sigaction Old;
    if (sigaction(S, nullptr, &Old) != 0 || Old.sa_handler != SIG_DFL)
      continue;
    struct sigaction New = {};
    New.sa_handler = onFatalSignal;
    sigemptyset(&New.sa_mask);
    // The others wait while one is handled; the same one again (abort()
    // unblocks SIGABRT) re-enters and ends the process.
    for (int T : {SIGINT, SIGTERM})
      if (T != S)
        sigaddset(&New.sa_mask, T);
    sigaction(S, &New, nullptr);
  }
}
