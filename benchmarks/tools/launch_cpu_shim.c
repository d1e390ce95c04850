/* Measures the CPU time a program spends inside kernel launches on the
 * emulator (benchmarks/tools/timing_speed.py). The emulator runs every
 * launch synchronously inside cudaLaunchKernel (runtime/emu/cudart), so the
 * process CPU time (all threads) across that call is the kernel's
 * emulation, timing model included; process start, module registration,
 * copies and the ground truth written at exit are outside it. Preloaded
 * (LD_PRELOAD); prints one line on stderr at exit, with the process's peak
 * resident memory (VmHWM: after exec, unlike the parent's rusage). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct {
  unsigned x, y, z;
} Dim3;
typedef int (*LaunchFn)(const void *, Dim3, Dim3, void **, size_t, void *);

static double Seconds;
static long Launches;

static double processCpu(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return (double)T.tv_sec + (double)T.tv_nsec * 1e-9;
}

int cudaLaunchKernel(const void *F, Dim3 G, Dim3 B, void **Args, size_t Shm,
                     void *Stream) {
  static LaunchFn Real;
  if (!Real)
    Real = (LaunchFn)dlsym(RTLD_NEXT, "cudaLaunchKernel");
  if (!Real)
    return 1; /* cudaErrorInvalidValue: no runtime underneath */
  double T0 = processCpu();
  int R = Real(F, G, B, Args, Shm, Stream);
  Seconds += processCpu() - T0;
  ++Launches;
  return R;
}

static long peakKib(void) {
  char Line[256];
  long Kib = -1;
  FILE *F = fopen("/proc/self/status", "r");
  if (!F)
    return -1;
  while (fgets(Line, sizeof Line, F))
    if (!strncmp(Line, "VmHWM:", 6))
      sscanf(Line + 6, "%ld", &Kib);
  fclose(F);
  return Kib;
}

__attribute__((destructor)) static void report(void) {
  if (Launches)
    fprintf(stderr, "launch_cpu_seconds %.6f launches %ld peak_kib %ld\n",
            Seconds, Launches, peakKib());
}
