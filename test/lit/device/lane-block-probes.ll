; Block probes in lane-local loops (-warpscope-lane-block-probes, default
; on): in a loop counting in lane-local 32-bit registers, a block that keeps
; a probe of its own (here the join of a branch that may diverge: it
; post-dominates the branch, so it is neither derived nor equivalent) counts
; in two registers of the loop too -- the leader adds 1 (warp executions),
; every lane 1 (thread executions) -- and the loop's exit flushes them, so
; no atomic and no branch around one runs per iteration. Off, and where the
; loop keeps the leader's 64-bit registers (no redux.sync before sm_80), the
; block keeps its ordinary probe.
; RUN: %opt-ws -passes=warpscope-device -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: FileCheck --check-prefix=DB %s < %t.json
; RUN: %opt-ws -passes=warpscope-device -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-lane-block-probes=0 -warpscope-db-out=%t.off.json -S %s | FileCheck --check-prefix=OFF %s
; RUN: FileCheck --check-prefix=DBOFF %s < %t.off.json
; RUN: sed 's/"target-cpu"="sm_90"/"target-cpu"="sm_70"/' %s | %opt-ws -passes=warpscope-device -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-db-out=%t.70.json -S | FileCheck --check-prefix=OFF %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @join_in_loop(
; CHECK: join:
; CHECK-NEXT: call { i32, i32 } asm sideeffect "// ws:block {{[0-9]+}} (promoted)\0A{{.*}}activemask.b32 %wsm;\0A\09elect.sync _|%wsp, %wsm;\0A\09@%wsp add.u32 $0, $0, 1;\0A\09add.u32 $1, $1, 1;\0A\09}", "=r,=r,0,1"
; CHECK-NOT: red.global
; CHECK: done:
; CHECK: asm sideeffect "// ws:flush
; CHECK: ret void
; The database marks the join's record promoted (its counts arrive at the
; loop's exit), and not with the option off.
; DB: "name": "join",
; DB-NEXT: "promoted": true,
; DBOFF: "name": "join",
; DBOFF-NEXT: "promoted": false,
; OFF-LABEL: define ptx_kernel void @join_in_loop(
; OFF: join:
; OFF-NEXT: asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}red.global.add.u64
; OFF: ret void
define ptx_kernel void @join_in_loop(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %skip = icmp eq i32 %n, 0
  br i1 %skip, label %done, label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %join ]
  %x = xor i32 %i, %tid
  %odd = and i32 %x, 1
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %then, label %join
then:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %i, ptr addrspace(1) %p
  br label %join
join:
  %next = add nuw i32 %i, 1
  %more = icmp ult i32 %next, %n
  br i1 %more, label %head, label %done
done:
  ret void
}

; A loop stepping by 32 likely runs few times per lane: not promoted, so
; its join keeps its ordinary probe.
; CHECK-LABEL: define ptx_kernel void @strided_loop(
; CHECK: join:
; CHECK-NEXT: asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}red.global.add.u64
; CHECK-NOT: ws:flush
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @strided_loop(
; OFF: join:
; OFF-NEXT: asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}red.global.add.u64
; OFF: ret void
define ptx_kernel void @strided_loop(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %skip = icmp eq i32 %n, 0
  br i1 %skip, label %done, label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %join ]
  %x = xor i32 %i, %tid
  %odd = and i32 %x, 1
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %then, label %join
then:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %i, ptr addrspace(1) %p
  br label %join
join:
  %next = add nuw i32 %i, 32
  %more = icmp ult i32 %next, %n
  br i1 %more, label %head, label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx80" }
