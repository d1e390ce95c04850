//===- WorkerPool.cpp - the emulator's host threads -----------------------===//
//
// A generation counter hands each job to the pool threads; each thread
// whose index is below the job's worker count and that wakes up before the
// caller finished its own share joins it; the caller waits for those.
//
//===----------------------------------------------------------------------===//
#include "WorkerPool.h"

namespace warpscope::emu::core {

WorkerPool &WorkerPool::instance() {
  static WorkerPool *P = new WorkerPool;
  return *P;
}

void WorkerPool::loop(unsigned Index) {
  uint64_t Seen = 0;
  for (;;) {
    const std::function<void(unsigned)> *J;
    {
      std::unique_lock<std::mutex> L(Mu);
      Wake.wait(L, [&] {
        return Generation != Seen && Index < Participants && !Closed;
      });
      Seen = Generation;
      J = Job;
      ++Pending;
    }
    (*J)(Index);
    std::lock_guard<std::mutex> L(Mu);
    if (--Pending == 0)
      Finished.notify_all();
  }
}

void WorkerPool::run(unsigned N, const std::function<void(unsigned)> &J) {
  if (N <= 1) {
    J(0);
    return;
  }
  std::lock_guard<std::mutex> Turn(RunMu);
  {
    std::lock_guard<std::mutex> L(Mu);
    while (Threads.size() + 1 < N) {
      unsigned Index = (unsigned)Threads.size() + 1;
      Threads.emplace_back([this, Index] { loop(Index); });
      Threads.back().detach();
    }
    Job = &J;
    Participants = N;
    Pending = 0; // counts the threads that joined
    Closed = false;
    ++Generation;
  }
  Wake.notify_all();
  J(0);
  std::unique_lock<std::mutex> L(Mu);
  Closed = true;
  Finished.wait(L, [&] { return Pending == 0; });
  Participants = 0;
  Job = nullptr;
}

} // namespace warpscope::emu::core
