; Cheaper counting, exact by construction:
; - a block ending in a probed branch, with no call, is counted by that
;   branch's probe (one marker names both records);
; - a block whose only way in is one side of a probed two-way branch gets no
;   probe, only a marker with one dead mov; its counts come from the branch;
; - but not a loop exit that post-dominates its branch: lanes leaving on
;   different iterations reconverge there and run it once together;
; - and a block that calls keeps its own probe at its start.
; (-warpscope-derive-loop-headers=0: loop headers counted from their preheader are derived-loop-headers.ll's.)
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-derive-loop-headers=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @if_then(
; CHECK: entry:
; CHECK-NOT: call void asm
; CHECK: call void asm sideeffect "// ws:block 0 ws:branch 2\0A\09{\0A\09.reg .b32 %ws_block_0_branch_2;{{.*}}@%wsa red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+48], 1;{{.*}}", "b"
; CHECK-NEXT: br i1 %odd
; CHECK: then:
; CHECK-NEXT: call void asm sideeffect "// ws:block 7 (derived)\0A\09{\0A\09.reg .b32 %ws_block_7;\0A\09mov.u32 %ws_block_7, 0;\0A\09}", ""()
; CHECK: join:
; CHECK-NEXT: call void asm sideeffect "// ws:block 9\0A
define ptx_kernel void @if_then(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bit = and i32 %tid, 1
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %then, label %join
then:
  store i32 1, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @loop(
; No successor is derived, so no arrivals are counted (histograms' edge arrivals,
; on by default, are turned off above to see this).
; CHECK-NOT: @%wsa red
; CHECK: exit:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}}\0A
; CHECK-NOT: derived
; CHECK: ret void
define ptx_kernel void @loop(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, %tid
  br i1 %more, label %body, label %exit
exit:
  store i32 %i, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @calls(
; CHECK: entry:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}}\0A
; CHECK: call i32 @f(
; CHECK: call void asm sideeffect "// ws:branch {{[0-9]+}}\0A
define ptx_kernel void @calls(ptr addrspace(1) %out) {
entry:
  %v = call i32 @f(i32 1)
  %z = icmp eq i32 %v, 0
  br i1 %z, label %a, label %b
a:
  store i32 1, ptr addrspace(1) %out
  br label %b
b:
  ret void
}

declare i32 @f(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; DB-LABEL: function if_then kind=kernel
; DB-NEXT: block id=0 counter=0 {{.*}}header=false{{$}}
; DB-NEXT: block id=1 counter=7 {{.*}} derived=branch0.succ0
; DB-NEXT: block id=2 counter=9 {{.*}}header=false{{$}}
; DB-NEXT: branch id=0 block=0 kind=br succ=1,2 uniform=false probed=true counter=2 {{.*}} shares-block-counts
; DB-LABEL: function loop kind=kernel
; DB-NOT: derived
; DB: branch id=0 block=1 kind=br succ=1,2 uniform=false probed=true {{.*}} shares-block-counts
; DB-LABEL: function calls kind=kernel
; DB-NOT: shares-block-counts
; DB: block id=1 {{.*}} derived=branch0.succ0
