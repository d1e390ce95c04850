//===- FatalSignal.h - Flush once on a fatal signal, never hang -----------===//
//
// A program that dies by SIGINT, SIGTERM, SIGABRT or a crash (SIGSEGV,
// SIGBUS, SIGFPE, SIGILL) should still leave its profile. Flushing from a
// signal handler cannot be async-signal-safe (it reads the device and writes
// JSON), so the handler bounds it instead: a second fatal signal during the
// flush (an abort inside an allocation, say) ends the process at once, and an
// alarm ends it if the flush blocks (on a lock the interrupted code holds).
// Either way the process ends by the signal it received, with its default
// action. SIGINT and SIGTERM in the middle of an emulated launch are
// deferred instead: the launch stops at its next branch and the launching
// thread flushes, so the part of the launch that ran is kept.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_RUNTIME_FATALSIGNAL_H
#define WARPSCOPE_RUNTIME_FATALSIGNAL_H

#include "warpscope/Support/Signals.h"

namespace warpscope::rt {

/// Installs the handler for SIGINT, SIGTERM, SIGABRT and the crash signals
/// SIGSEGV, SIGBUS, SIGFPE and SIGILL, each only where
/// the program left the default action. On the first such signal it calls
/// Flush(signal) with at most Seconds to finish, then ends the process by
/// that signal.
/// Defer (may be null), for SIGINT and SIGTERM: when it returns true, some
/// other thread of the program finishes first (a launch that stops at the
/// signal) and then calls finishDeferredSignal; the handler returns, and if
/// that does not happen within Seconds, the process ends after Flush.
void installFatalSignalHandlers(void (*Flush)(int Signal), unsigned Seconds,
                                bool (*Defer)(int Signal) = nullptr);

/// The signal whose flush was deferred, 0 when none.
int deferredSignal();

/// For the thread that Defer waited for: flushes (bounded, as a handler
/// does) and ends the process by the deferred signal.
[[noreturn]] void finishDeferredSignal();

/// Ends the process by Signal with its default action (async-signal-safe;
/// the support library's, shared with the emulator).
using support::dieBySignal;

/// The fatal signal a handler is handling, 0 when none: a flush that a
/// handler waited for ends the process by it (else the program could exit
/// normally first, and lose its real status).
int fatalSignalBeingHandled();

} // namespace warpscope::rt

#endif // WARPSCOPE_RUNTIME_FATALSIGNAL_H
