//===- Signals.h - Ending the process by a signal ----------------*- C++
//-*-===//
//
// Shared by everything in the user's process that handles a fatal signal
// (the runtime's flush, the emulator's interrupted launch): after its own
// work, the handler ends the process the way the signal would have.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_SIGNALS_H
#define WARPSCOPE_SUPPORT_SIGNALS_H

namespace warpscope::support {

/// Restores Signal's default action, unblocks it and raises it, so the
/// process ends by Signal (its exit status and core dump as without us);
/// exits with 128 + Signal for a signal whose default is to continue.
[[noreturn]] void dieBySignal(int Signal);

} // namespace warpscope::support

#endif // WARPSCOPE_SUPPORT_SIGNALS_H
