// One rank of a job (issue 38): every rank runs the same kernel on its own
// data; rank HEAVY (argv[1]) runs three times the rounds, and rank KILL
// (argv[2]) is killed by SIGKILL before it exits, so it leaves no profile.
// Built with -DWITH_MPI it is an MPI program; without, it reads its rank
// from a launcher's variable, set by hand.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <unistd.h>
#ifdef WITH_MPI
#include <mpi.h>
#endif

__global__ void collatz(const int *In, int *Out, int N, int Rounds) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int X = In[I];
  for (int R = 0; R < Rounds; ++R) {
    if (X & 1) { // lanes disagree: divergent
#pragma unroll 1
      for (int K = 0; K < (X & 7); ++K)
        X = 3 * X + K;
    } else {
      X /= 2;
    }
  }
#ifdef VARIANT // another build of the program: another branch
  if (X > 1000)
    X -= 1000;
#endif
  Out[I] = X;
}

int main(int argc, char **argv) {
  int Rank = 0;
#ifdef WITH_MPI
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
#else
  for (const char *Var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char *R = std::getenv(Var)) {
      Rank = std::atoi(R);
      break;
    }
#endif
  int Heavy = argc > 1 ? std::atoi(argv[1]) : -1;
  int Kill = argc > 2 ? std::atoi(argv[2]) : -1;
  const int N = 512;
  int Host[N];
  for (int I = 0; I < N; ++I)
    Host[I] = I + 1;
  int *In, *Out;
  cudaMalloc(&In, N * sizeof(int));
  cudaMalloc(&Out, N * sizeof(int));
  cudaMemcpy(In, Host, N * sizeof(int), cudaMemcpyHostToDevice);
  collatz<<<N / 128, 128>>>(In, Out, N,
                            Rank == Heavy ? 48 : 16);
  cudaMemcpy(Host, Out, N * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("rank %d: %d\n", Rank, Host[6]);
  std::fflush(stdout);
#ifdef WITH_MPI
  MPI_Finalize();
#endif
  if (Rank == Kill) {
    usleep(500000); // the others have ended and written their profiles
    raise(SIGKILL); // no handler runs: this rank's profile is lost
  }
  return 0;
}
