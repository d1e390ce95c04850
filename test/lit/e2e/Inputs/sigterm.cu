// A program that gets SIGTERM (or crashes: `crash`, a null write after its
// kernel; `raise N`: signal N after its kernel). `early`: after its kernel, with no flush
// going on. `wait`: sleeps after its kernel until someone sends one. While its profile is flushed at exit (WARPSCOPE_FLUSH_DELAY_MS
// makes that flush last): `other` raises it on a helper thread, which waits
// for the exit flush; `self` sends it to the flushing (main) thread, which
// cannot finish that flush.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <thread>
#include <unistd.h>

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

std::atomic<bool> Exiting{false};
pthread_t Main;

int main(int argc, char **argv) {
  const char *How = argc > 1 ? argv[1] : "";
  bool Self = !std::strcmp(How, "self");
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  touch<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  if (!std::strcmp(How, "wait")) {
    std::printf("waiting (pid %d)\n", (int)getpid());
    std::fflush(stdout);
    sleep(60);
  }
  if (!std::strcmp(How, "crash")) {
    std::printf("crashing\n");
    std::fflush(stdout);
    *(volatile int *)nullptr = 1;
  }
  if (!std::strcmp(How, "raise") && argc > 2) { // a fatal signal by number
    std::printf("raising %s\n", argv[2]);
    std::fflush(stdout);
    raise(std::atoi(argv[2]));
  }
  if (!std::strcmp(How, "early")) {
    raise(SIGTERM);
    std::printf("not reached\n");
  }
  Main = pthread_self();
  std::thread([Self] {
    while (!Exiting)
      usleep(1000);
    usleep(500 * 1000); // well inside the exit flush's delay
    if (Self)
      pthread_kill(Main, SIGTERM);
    else
      raise(SIGTERM); // this thread's own
    for (;;)
      pause();
  }).detach();
  std::printf("exiting\n");
  std::fflush(stdout);
  Exiting = true;
  return 0;
}
