//===- Signals.cpp - Ending the process by a signal -----------------------===//

#include "warpscope/Support/Signals.h"
#include <csignal>
#include <unistd.h>

void warpscope::support::dieBySignal(int Signal) {
  struct sigaction Default = {};
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  sigaction(Signal, &Default, nullptr);
  // The handler runs with Signal blocked; unblocked, it is delivered now.
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, Signal);
  sigprocmask(SIG_UNBLOCK, &Set, nullptr);
  raise(Signal);
  _exit(128 + Signal); // a signal whose default is to continue
}
