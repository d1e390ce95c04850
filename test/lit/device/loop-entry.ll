; Loop-entry records: a proven-uniform branch that enters a loop over a
; critical edge while its other edge is critical too gets no divergence
; probe (no vote), only a leader-only count of the visits that go to
; successor 0 and their active lanes ("ws:entry", one branch around the
; leader's atomics), so the preheader the code
; generator puts on that edge gets exact counts. A guard with a dedicated
; preheader or exit needs none. Every block records its successors, and the
; post-dominator where a divergent branch's lanes meet is marked.
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump --cfg %t.json | FileCheck --check-prefix=DB %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-counter-replicas=1 -warpscope-count-loop-entries=0 -S %s | FileCheck --check-prefix=OFF %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @critical(
; CHECK: entry:
; CHECK-NOT: vote.sync
; CHECK: call void asm sideeffect "// ws:entry [[W:[0-9]+]]\0A\09{\0A\09.reg .b32 %ws_entry_[[W]];{{.*}}elect.sync _|%wsp, %wsm;\0A\09and.pred %wsp, %wsp, $0;\0A\09@!%wsp bra ws_done;\0A\09red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+{{[0-9]+}}], 1;{{.*}}ws_done:{{.*}}", "b"(i1 %guard)
; CHECK-NEXT: br i1 %guard, label %loop, label %exit
; CHECK: loop:
; CHECK-NOT: ws:entry
; CHECK: ret void
define ptx_kernel void @critical(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %guard = icmp sgt i32 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %tid, ptr addrspace(1) %p
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @dedicated(
; CHECK-NOT: ws:entry
; CHECK: ret void
define ptx_kernel void @dedicated(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %guard = icmp sgt i32 %n, 0
  br i1 %guard, label %preheader, label %exit
preheader:
  br label %loop
loop:
  %i = phi i32 [ 0, %preheader ], [ %next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; A divergent branch: its lanes meet at its post-dominator, the join.
; CHECK-LABEL: define ptx_kernel void @diverges(
define ptx_kernel void @diverges(ptr addrspace(1) %out) #0 {
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

; DB-LABEL: function critical
; DB: block id=0 {{.*}} to=1,2{{$}}
; DB: block id=1 {{.*}} to=1,2{{$}}
; DB: block id=2 {{.*}} to={{$}}
; DB: branch id=0 block=0 kind=br succ=1,2 uniform=true probed=false counter={{[0-9]+}} {{.*}} counts-arrivals
; DB: branch id=1 block=1 kind=br succ=1,2 uniform=true probed=false counter=-1
; DB-NOT: counts-arrivals
; DB-LABEL: function dedicated
; DB: branch id=0 block=0 {{.*}} probed=false counter=-1
; DB-NOT: counts-arrivals
; DB-LABEL: function diverges
; DB: block id=0 {{.*}} to=1,2{{$}}
; DB: block id=1 {{.*}} to=2{{$}}
; DB: block id=2 {{.*}} to= reconverges

; OFF-LABEL: define ptx_kernel void @critical(
; OFF-NOT: ws:entry
; OFF: ret void

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx86" }
