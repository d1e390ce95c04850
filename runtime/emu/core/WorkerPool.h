//===- WorkerPool.h - the emulator's host threads ---------------*- C++ -*-===//
//
// One pool per process, grown on demand and never shrunk: a launch runs its
// CTAs on N workers, worker 0 being the launching thread itself, so a launch
// on one worker starts no thread at all. One job runs at a time; launches of
// several host threads take turns.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_WORKERPOOL_H
#define WARPSCOPE_EMU_CORE_WORKERPOOL_H

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace warpscope::emu::core {

class WorkerPool {
public:
  /// The process's pool (created on first use, never destroyed: its idle
  /// threads must not race with static destructors of the program).
  static WorkerPool &instance();
  /// Runs Job(0) on the caller and Job(1) .. Job(N-1) on pool threads and
  /// returns when all have returned; a pool thread that has not started
  /// when Job(0) returns does not run at all. Job must not throw.
  void run(unsigned N, const std::function<void(unsigned)> &Job);

private:
  void loop(unsigned Index);
  std::mutex RunMu; // one job at a time
  std::mutex Mu;
  std::condition_variable Wake, Finished;
  std::vector<std::thread> Threads; // Threads[i] is worker i + 1
  const std::function<void(unsigned)> *Job = nullptr;
  unsigned Participants = 0, Pending = 0;
  uint64_t Generation = 0;
  // Set once the caller finished its share: threads that have not woken up
  // yet stay out (on a loaded machine waking one can take milliseconds, by
  // which time a small launch is over).
  bool Closed = false;
};

} // namespace warpscope::emu::core

#endif
