; A block that runs exactly when a dominator it post-dominates runs (same
; loop, nothing between them that calls or may diverge) gets no probe: only
; a marker, and its counts are that block's.
; - the join of a proven-uniform branch takes the entry's counts;
; - so does the exit of a loop whose branches are all uniform;
; - the join of a branch that may diverge keeps its probe (lanes that split
;   there need not run it together), unless -warpscope-assume-reconvergence;
; - a call between the two keeps the probe (it may end lanes).
; RUN: %opt-ws -passes=warpscope-device -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-assume-reconvergence -warpscope-db-out=%t.assume.json -S %s | FileCheck --check-prefix=ASSUME %s
; RUN: %dbdump %t.assume.json | FileCheck --check-prefix=DB-ASSUME %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-derive-equivalent-blocks=0 -warpscope-db-out=%t.off.json -S %s -o /dev/null
; RUN: %dbdump %t.off.json | FileCheck --check-prefix=DB-OFF %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @uniform_join(
; CHECK: join:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
define ptx_kernel void @uniform_join(ptr addrspace(1) %out) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %bid, 0
  br i1 %first, label %then, label %join
then:
  store i32 1, ptr addrspace(1) %out
  br label %join
join:
  store i32 2, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @uniform_loop(
; CHECK: exit:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
define ptx_kernel void @uniform_loop(ptr addrspace(1) %out, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, %n
  br i1 %more, label %body, label %exit
exit:
  store i32 %i, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @divergent_join(
; CHECK: join:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}}\0A
; ASSUME-LABEL: define ptx_kernel void @divergent_join(
; ASSUME: join:
; ASSUME-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
define ptx_kernel void @divergent_join(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = icmp ne i32 %tid, 0
  br i1 %odd, label %then, label %join
then:
  store i32 1, ptr addrspace(1) %out
  br label %join
join:
  store i32 2, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @call_between(
; CHECK: join:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}}\0A
; ASSUME-LABEL: define ptx_kernel void @call_between(
; ASSUME: join:
; ASSUME-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}}\0A
define ptx_kernel void @call_between(ptr addrspace(1) %out) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %bid, 0
  br i1 %first, label %then, label %join
then:
  call void @f()
  br label %join
join:
  store i32 2, ptr addrspace(1) %out
  ret void
}

; A cycle with two ways in (no natural loop) may run the block many times
; per entry: nothing is derived in such a function.
; CHECK-LABEL: define ptx_kernel void @irreducible(
; CHECK: r:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}}\0A
define ptx_kernel void @irreducible(ptr addrspace(1) %out, i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %a, label %b
a:
  %i = phi i32 [ 0, %entry ], [ %j, %b ]
  br label %r
r:
  store i32 %i, ptr addrspace(1) %out
  %k = add i32 %i, 1
  %more = icmp ult i32 %k, %n
  br i1 %more, label %b, label %exit
b:
  %j = phi i32 [ 1, %entry ], [ %k, %r ]
  br label %a
exit:
  ret void
}

declare void @f()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; DB-LABEL: function uniform_join kind=kernel
; DB-NEXT: block id=0 {{.*}}header=false{{$}}
; DB-NEXT: block id=1 {{.*}}header=false{{$}}
; DB-NEXT: block id=2 {{.*}} same-as=block0{{$}}
; DB-LABEL: function uniform_loop kind=kernel
; DB-NEXT: block id=0 {{.*}}header=false{{$}}
; DB-NEXT: block id=1 {{.*}}header=true{{$}}
; DB-NEXT: block id=2 {{.*}} same-as=block0{{$}}
; DB-LABEL: function divergent_join kind=kernel
; DB-NOT: same-as
; DB-LABEL: function call_between kind=kernel
; DB-NOT: same-as
; DB: branch

; DB-LABEL: function irreducible kind=kernel
; DB-NOT: same-as
; DB: branch

; DB-ASSUME-LABEL: function uniform_join kind=kernel
; DB-ASSUME: block id=2 {{.*}} same-as=block0{{$}}
; DB-ASSUME-LABEL: function divergent_join kind=kernel
; DB-ASSUME: block id=2 {{.*}} same-as=block0 assumes-reconvergence{{$}}
; DB-ASSUME-LABEL: function call_between kind=kernel
; DB-ASSUME-NOT: same-as
; DB-ASSUME: branch

; DB-OFF-NOT: same-as
