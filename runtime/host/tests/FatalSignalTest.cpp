//===- FatalSignalTest.cpp - The fatal-signal path ends, by its signal ----===//
//
// Each case runs in a forked child, which must end by the signal it received
// within a few seconds, whatever its flush does.
//
//===----------------------------------------------------------------------===//

#include "FatalSignal.h"
#include "gtest/gtest.h"
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace warpscope::rt;

namespace {

/// Forks; the child installs the handlers with Flush and a 1 s bound, then
/// raises Signal. Returns the child's wait status, or -1 if it was still
/// running after 10 s (then killed); Stderr gets what the child wrote there.
int runChild(void (*Flush)(int), int Signal, std::string &Stderr) {
  int Err[2];
  if (pipe(Err) != 0)
    return -1;
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(Err[1], STDERR_FILENO);
    installFatalSignalHandlers(Flush, 1);
    raise(Signal);
    _exit(0); // not reached
  }
  close(Err[1]);
  int Status = 0;
  bool Ended = false;
  for (int I = 0; I < 1000 && !Ended; ++I) {
    Ended = waitpid(Pid, &Status, WNOHANG) == Pid;
    if (!Ended)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!Ended) {
    kill(Pid, SIGKILL);
    waitpid(Pid, &Status, 0);
  }
  char Buf[512];
  ssize_t N;
  Stderr.clear();
  while ((N = read(Err[0], Buf, sizeof Buf)) > 0)
    Stderr.append(Buf, size_t(N));
  close(Err[0]);
  return Ended ? Status : -1;
}

const char *Timeout = "the flush after a fatal signal did not finish in time";

int Pipe[2];

void flushWrites(int Signal) {
  char C = char(Signal);
  ssize_t Ignored = write(Pipe[1], &C, 1);
  (void)Ignored;
}
void flushHangs(int) {
  for (;;)
    pause();
}
void flushAborts(int) { abort(); }

} // namespace

TEST(FatalSignal, FlushesOnceThenEndsByTheSignal) {
  ASSERT_EQ(pipe(Pipe), 0);
  std::string Err;
  int Status = runChild(flushWrites, SIGTERM, Err);
  close(Pipe[1]);
  char Got[4] = {};
  ssize_t N = read(Pipe[0], Got, sizeof Got);
  close(Pipe[0]);
  ASSERT_NE(Status, -1) << "the child hung";
  ASSERT_TRUE(WIFSIGNALED(Status));
  EXPECT_EQ(WTERMSIG(Status), SIGTERM);
  EXPECT_EQ(N, 1) << "one flush";
  EXPECT_EQ(Got[0], char(SIGTERM));
  EXPECT_EQ(Err.find(Timeout), std::string::npos) << Err;
}

TEST(FatalSignal, AFlushThatBlocksIsCutShortByTheBound) {
  std::string Err;
  int Status = runChild(flushHangs, SIGABRT, Err);
  ASSERT_NE(Status, -1) << "the child hung";
  ASSERT_TRUE(WIFSIGNALED(Status));
  EXPECT_EQ(WTERMSIG(Status), SIGABRT);
  EXPECT_NE(Err.find(Timeout), std::string::npos) << Err;
}

TEST(FatalSignal, AnAbortInsideTheFlushEndsByTheFirstSignal) {
  // With SIGABRT first, abort() re-enters its own handler.
  for (int First : {SIGTERM, SIGABRT}) {
    std::string Err;
    int Status = runChild(flushAborts, First, Err);
    ASSERT_NE(Status, -1) << "the child hung";
    ASSERT_TRUE(WIFSIGNALED(Status));
    EXPECT_EQ(WTERMSIG(Status), First);
    EXPECT_EQ(Err.find(Timeout), std::string::npos) << "ended by the bound";
  }
}

TEST(FatalSignal, AHandlerOfTheProgramIsLeftAlone) {
  pid_t Pid = fork();
  if (Pid == 0) {
    signal(SIGTERM, [](int) { _exit(42); });
    installFatalSignalHandlers(flushHangs, 1);
    raise(SIGTERM);
    _exit(0);
  }
  int Status = 0;
  waitpid(Pid, &Status, 0);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 42);
}
