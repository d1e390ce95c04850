// Compiled with the flags users get from `warpscope config --cflags`: the
// PTX has a probe at each thread-dependent branch (no vote in memory, one in
// loop registers), none at a blockIdx-only one; the database has their lines.
// RUN: %clang-cuda --cuda-device-only -S -O2 $(%warpscope config --cflags) -mllvm -warpscope-db-out=%t.json %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s

__global__ void thread_dependent(int *a, int n) {
  if (threadIdx.x % 3 == 0) // divergent within every warp
    a[threadIdx.x] = n;
}
// CHECK-LABEL: .entry _Z16thread_dependentPii(
// CHECK: ws:branch
// CHECK-NOT: .sync
// CHECK: @{{!?}}%p{{[0-9]+}} bra ws_done;{{[[:space:]]+}}activemask.b32 %wsb;

__global__ void block_only(int *a, int n) {
  if (blockIdx.x == 0) // same for the whole block
    a[n] = 1;
}
// CHECK-LABEL: .entry _Z10block_onlyPii(
// CHECK-NOT: ws:branch
// CHECK: // ws:block
// CHECK-NOT: ws:branch
// CHECK: ret;

__global__ void data_loop(const int *trip, int *out) {
  for (int i = 0; i < trip[threadIdx.x]; ++i) // data-dependent trip count
    out[threadIdx.x * i] += i;
}
// CHECK-LABEL: .entry _Z9data_loopPKiPi(
// CHECK: ws:branch
// CHECK: vote.sync.ballot.b32

// DB-LABEL: function _Z16thread_dependentPii kind=kernel demangled=thread_dependent(int*, int) line=8
// DB-NEXT: block id=0 counter=0 loc=probes-at-thread-dependent-branches.cu:9:
// DB: branch id=0 block=0 kind=br succ=1,2 uniform=false probed=true counter=2 loc=probes-at-thread-dependent-branches.cu:9:
// DB-LABEL: function _Z10block_onlyPii kind=kernel
// DB: branch id=0 block=0 kind=br succ=1,2 uniform=true probed=false counter=-1 loc=probes-at-thread-dependent-branches.cu:18:
// DB-LABEL: function _Z9data_loopPKiPi kind=kernel
// DB: loc=probes-at-thread-dependent-branches.cu:29:{{[0-9]+}} depth=1 header=true
// DB: uniform=false probed=true {{.*}} loc=probes-at-thread-dependent-branches.cu:28:
// DB: uniform=false probed=true {{.*}} loc=probes-at-thread-dependent-branches.cu:28:
