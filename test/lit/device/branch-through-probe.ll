; A loop's exiting latch on a compare takes its condition from its probe,
; which passes the predicate through in the same register (the output is
; tied to the input: no instruction). The code generator's loop strength
; reduction then cannot rewrite the branch's compare and keep the original
; for the probe (computing both). Where successor 0 is the next block the
; probe gets the negated compare and the branch's successors swap, so it
; still leaves for successor 0 when the compare holds. Other branches keep
; their condition.
; (-warpscope-pack-lane-counters=0: 16-bit fields are lane-packed-counters.ll's.)
; (-warpscope-derive-loop-headers=0: loop headers counted from their preheader are derived-loop-headers.ll's.)
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-derive-loop-headers=0 -warpscope-pack-lane-counters=0 -warpscope-counter-replicas=1 -warpscope-promote-loop-counters=0 -S %s | FileCheck %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-derive-loop-headers=0 -warpscope-pack-lane-counters=0 -warpscope-counter-replicas=1 -S %s | FileCheck --check-prefix=PROMOTED %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-derive-loop-headers=0 -warpscope-pack-lane-counters=0 -warpscope-counter-replicas=1 -warpscope-promote-loop-counters=0 -warpscope-branch-through-probe=0 -S %s | FileCheck --check-prefix=OFF %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @latch(
; CHECK: body:
; CHECK: %[[P:[0-9]+]] = call i1 asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}vote.sync.ballot.b32 %wsb, $1, %wsm;{{.*}}", "=b,0"(i1 %more)
; CHECK-NEXT: br i1 %[[P]], label %body, label %exit
; PROMOTED-LABEL: define ptx_kernel void @latch(
; PROMOTED: %[[R:[0-9]+]] = call { i32, i32, i32, i32, i32, i1 } asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted){{.*}}vote.sync.ballot.b32 %wsb, $11, %wsm;{{.*}}@$11 add.u32 $3, $3, 1;{{.*}}", "=r,=r,=r,=r,=r,=b,0,1,2,3,4,5"(i32 {{.*}}, i1 %more)
; PROMOTED: %[[P:[0-9]+]] = extractvalue { i32, i32, i32, i32, i32, i1 } %[[R]], 5
; PROMOTED: br i1 %[[P]], label %body, label %exit
; OFF-LABEL: define ptx_kernel void @latch(
; OFF: call void asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}{{.*}}", "b"(i1 %more)
; OFF-NEXT: br i1 %more, label %body, label %exit
define ptx_kernel void @latch(ptr addrspace(1) %out) #0 {
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

; Successor 0 (the exit) is the next block: the probe gets the negated
; compare (and negates it back for its vote); the branch uses it with its
; successors swapped.
; CHECK-LABEL: define ptx_kernel void @fallthrough_exit(
; CHECK: %[[N:[0-9]+]] = xor i1 %done, true
; CHECK: %[[P:[0-9]+]] = call i1 asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}vote.sync.ballot.b32 %wsb, !$1, %wsm;{{.*}}", "=b,0"(i1 %[[N]])
; CHECK-NEXT: br i1 %[[P]], label %body, label %exit
define ptx_kernel void @fallthrough_exit(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %next = add i32 %i, 1
  %done = icmp uge i32 %next, %tid
  br i1 %done, label %exit, label %body
exit:
  store i32 %i, ptr addrspace(1) %out
  ret void
}

; Not a latch: the branch keeps its own condition.
; CHECK-LABEL: define ptx_kernel void @if_then(
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}{{.*}}", "b"(
; CHECK-NEXT: br i1 %odd, label %then, label %join
define ptx_kernel void @if_then(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = icmp ne i32 %tid, 0
  br i1 %odd, label %then, label %join
then:
  store i32 1, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx86" }
