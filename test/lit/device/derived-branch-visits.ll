; A derived block that ends in a probed branch and calls nothing gives that
; branch its visits and active threads: the branch's probe writes neither
; (nor the block's words), and the database marks the branch
; shares_block_counts with its block derived, so the driver derives in
; chains (branch record -> block -> that block's branch -> its derived
; successors). Inside a loop counting in lane-local registers the probe
; keeps three registers instead of five; in one counting in the leader's
; 64-bit registers, the loop's flush tests all three (none is non-zero in
; every lane that led, as visits were). A block that calls something keeps
; its branch counting its own visits.
; (-warpscope-pack-lane-counters=0: 16-bit fields are lane-packed-counters.ll's.)
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-pack-lane-counters=0 -warpscope-counter-replicas=1 -warpscope-branch-through-probe=0 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump --cfg %t.json | FileCheck --check-prefix=DB %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-pack-lane-counters=0 -warpscope-counter-replicas=1 -warpscope-branch-through-probe=0 -warpscope-lane-loop-counters=0 -S %s | FileCheck --check-prefix=WIDE %s

target triple = "nvptx64-nvidia-cuda"

; Two levels: %a is side 0 of the entry's branch, %b side 0 of %a's.
; %a's branch record is at word 9 (byte 72: visits; divergent 80, active
; threads 88, successor-0 threads 96, arrivals 104).
; CHECK-LABEL: define ptx_kernel void @chain(
; CHECK: a:
; CHECK-NEXT: call void asm sideeffect "// ws:block 7 (derived)
; CHECK: call void asm sideeffect "// ws:branch 9\0A{{.*}}@!%wsp bra ws_done;\0A\09@%wsa red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+104], 1;\0A\09@%wsd red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+80], 1;\0A\09popc.b32 %wsn, %wsb;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+96], %wsc;\0Aws_done:\0A\09}"
; CHECK-NEXT: br i1 %c1, label %b, label %join
; CHECK: b:
; CHECK-NEXT: call void asm sideeffect "// ws:block 14 (derived)
; DB-LABEL: function chain kind=kernel
; DB: block id=1 counter=7 {{.*}} derived=branch0.succ0
; DB-NEXT: block id=2 counter=14 {{.*}} derived=branch1.succ0
; DB: branch id=0 block=0 kind=br {{.*}} shares-block-counts
; DB-NEXT: branch id=1 block=1 kind=br {{.*}} counter=9 {{.*}} shares-block-counts
define ptx_kernel void @chain(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c0 = icmp ult i32 %tid, 20
  br i1 %c0, label %a, label %join
a:
  store i32 1, ptr addrspace(1) %out
  %low = and i32 %tid, 1
  %c1 = icmp eq i32 %low, 0
  br i1 %c1, label %b, label %join
b:
  store i32 2, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

; A dispatch loop (at most 100 iterations: lane-local registers): the case
; block %push, which one case value leads to, is derived from the switch,
; and its divergent branch counts in three registers (divergent visits,
; successor-0 threads, arrivals), not five.
; CHECK-LABEL: define ptx_kernel void @dispatch(
; CHECK: push:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
; CHECK: call { i32, i32, i32 } asm sideeffect "// ws:branch {{[0-9]+}} (promoted)\0A{{.*}}vote.sync.ballot.b32 %wsb, {{.*}}, %wsm;\0A\09setp.ne.and.u32 %wsa, %wsb, 0, %wsp;\0A\09setp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\0A\09@%wsd add.u32 $0, $0, 1;\0A\09@{{.*}} add.u32 $1, $1, 1;\0A\09@%wsa add.u32 $2, $2, 1;\0A\09}", "=r,=r,=r,0,1,2,b"
; CHECK-NEXT: extractvalue
; CHECK: br i1 %room, label %grow, label %latch
; WIDE-LABEL: define ptx_kernel void @dispatch(
; WIDE: call { i64, i64, i64 } asm sideeffect "// ws:branch {{[0-9]+}} (promoted)
; WIDE: ws:flush {{[0-9]+}}\0A{{.*}}or.b64 %wst, $0, $1;\0A\09or.b64 %wst, %wst, $2;\0A\09setp.ne.u64 %wsq, %wst, 0;
; DB-LABEL: function dispatch kind=kernel
; DB: block id=[[PUSH:[0-9]+]] {{.*}} derived=branch0.succ1
; DB: branch id={{[0-9]+}} block=[[PUSH]] kind=br {{.*}} shares-block-counts promoted
define ptx_kernel void @dispatch(ptr addrspace(1) %out, ptr addrspace(1) %code) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %sp = phi i32 [ 0, %entry ], [ %sp2, %latch ]
  %pc = getelementptr i32, ptr addrspace(1) %code, i32 %i
  %op0 = load i32, ptr addrspace(1) %pc
  %op = xor i32 %op0, %tid
  switch i32 %op, label %latch [
    i32 0, label %push
    i32 1, label %other
    i32 2, label %third
    i32 3, label %fourth
  ]
push:
  %room = icmp ult i32 %sp, 8
  br i1 %room, label %grow, label %latch
grow:
  %spg = add i32 %sp, 1
  br label %latch
other:
  store i32 %i, ptr addrspace(1) %out
  br label %latch
third:
  store i32 %sp, ptr addrspace(1) %out
  br label %latch
fourth:
  store i32 %tid, ptr addrspace(1) %out
  br label %latch
latch:
  %sp2 = phi i32 [ %sp, %head ], [ %sp, %push ], [ %spg, %grow ], [ %sp, %other ], [ %sp, %third ], [ %sp, %fourth ]
  %next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %next, 100
  br i1 %more, label %head, label %done
done:
  store i32 %sp2, ptr addrspace(1) %out
  ret void
}

; %a calls a function before its test (it may exit lanes or come back with
; another mask): derived all the same, but its branch counts its own visits
; (the probe begins with the visits' atomic: record at word 67, byte 536).
; CHECK-LABEL: define ptx_kernel void @calls(
; CHECK: a:
; CHECK-NEXT: call void asm sideeffect "// ws:block 65 (derived)
; CHECK: call void asm sideeffect "// ws:branch 67\0A{{.*}}@!%wsp bra ws_done;\0A\09red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+536], 1;
; DB-LABEL: function calls kind=kernel
; DB: block id=1 counter=65 {{.*}} derived=branch0.succ0
; DB: branch id=1 block=1 kind=br succ=2,3 uniform=false probed=true counter=67 loc=:0:0 counts-arrivals{{$}}
define ptx_kernel void @calls(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c0 = icmp ult i32 %tid, 20
  br i1 %c0, label %a, label %join
a:
  call void @helper(ptr addrspace(1) %out)
  %low = and i32 %tid, 1
  %c1 = icmp eq i32 %low, 0
  br i1 %c1, label %b, label %join
b:
  store i32 2, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

declare void @helper(ptr addrspace(1))
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx80" }
