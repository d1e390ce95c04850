; A loop header whose only ways in are its preheader (whose only successor
; it is) and successor 0 of its latch's probed two-way branch (whose other
; side leaves the loop; the latch calls nothing and has its own counts) gets
; no probe: only a marker, and the database derives it from both
; (derived_from with entered_from: the preheader's counts plus the back
; edge's threads and visits sending a lane back). The latch's probe counts
; the arrivals at the back edge for it. A header that is its own latch, in a
; loop with a trip count bound, is derived the same way; a back edge on the
; latch's successor 1 too, where the latch is another block. Where any of
; that fails the header keeps its probe: its own latch in a loop without a
; bound or over successor 1, a latch that calls, a header entered from a
; branch, the option off.
; RUN: %opt-ws -passes=warpscope-device -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-branch-through-probe=0 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-branch-through-probe=0 -warpscope-derive-loop-headers=0 -warpscope-db-out=%t.off.json -S %s | FileCheck --check-prefix=OFF %s
; RUN: %dbdump %t.off.json | FileCheck --check-prefix=DB-OFF %s

target triple = "nvptx64-nvidia-cuda"

; The shape of mandelbrot's loop: a uniform test at the header, a
; divergent one at the latch. The header's record is at word 9; the latch's
; block record at 11 and its branch record at 13.
; CHECK-LABEL: define ptx_kernel void @two_exits(
; CHECK: head:
; CHECK-NOT: asm
; CHECK: call void asm sideeffect "// ws:block 9 (derived)
; CHECK: latch:
; CHECK: asm sideeffect "// ws:block 11 ws:branch 13 (promoted)
; CHECK: br i1 %back, label %head, label %done
; DB-LABEL: function two_exits kind=kernel
; DB: block id=2 counter=9 {{.*}} header=true derived=branch2.succ0 entered-from=block1{{$}}
; DB: branch id=2 block=3 kind=br succ=2,4 uniform=false probed=true counter=13 {{.*}} shares-block-counts promoted
; OFF-LABEL: define ptx_kernel void @two_exits(
; OFF: head:
; OFF-NOT: asm
; OFF: asm sideeffect "// ws:block 9 (promoted)
; DB-OFF-LABEL: function two_exits kind=kernel
; DB-OFF: block id=2 counter=9 {{.*}} header=true promoted{{$}}
define ptx_kernel void @two_exits(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, 20
  br i1 %in, label %pre, label %done
pre:
  store i32 0, ptr addrspace(1) %out
  br label %head
head:
  %i = phi i32 [ 0, %pre ], [ %next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %done
latch:
  %next = add nsw i32 %i, 1
  %x = xor i32 %next, %tid
  %back = icmp ne i32 %x, 7
  br i1 %back, label %head, label %done
done:
  ret void
}

; The preheader runs exactly when the entry runs (equivalent: no probe of
; its own): the header names the entry instead.
; CHECK-LABEL: define ptx_kernel void @equivalent_preheader(
; CHECK: pre:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
; CHECK: head:
; CHECK-NOT: asm
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
; DB-LABEL: function equivalent_preheader kind=kernel
; DB: block id=1 {{.*}} same-as=block0
; DB: block id=2 {{.*}} header=true derived=branch1.succ0 entered-from=block0{{$}}
define ptx_kernel void @equivalent_preheader(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %pre
pre:
  store i32 0, ptr addrspace(1) %out
  br label %head
head:
  %i = phi i32 [ 0, %pre ], [ %next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %done
latch:
  %next = add nsw i32 %i, 1
  %x = xor i32 %next, %tid
  %back = icmp ne i32 %x, 7
  br i1 %back, label %head, label %done
done:
  ret void
}

; The header is its own latch, in a loop of at most 100 iterations: its
; branch's probe counts only its divergent visits (leader), the back edge's
; threads (every lane going back) and its arrivals (leader): three counts
; in two packed lane registers, not five in three.
; CHECK-LABEL: define ptx_kernel void @bounded_self_loop(
; CHECK: head:
; CHECK-NOT: asm
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
; CHECK: call { i32, i32 } asm sideeffect "// ws:branch {{[0-9]+}} (promoted)\0A{{.*}}vote.sync.ballot.b32 %wsb, {{.*}}, %wsm;\0A\09setp.ne.and.u32 %wsa, %wsb, 0, %wsp;\0A\09setp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\0A\09@%wsd add.u32 $0, $0, 1;\0A\09@{{.*}} add.u32 $0, $0, 65536;\0A\09@%wsa add.u32 $1, $1, 1;\0A\09}", "=r,=r,0,1,b"
; CHECK: br i1 %back, label %head, label %done
; DB-LABEL: function bounded_self_loop kind=kernel
; DB: block id=2 {{.*}} header=true derived=branch1.succ0 entered-from=block1{{$}}
; DB: branch id=1 block=2 kind=br succ=2,3 {{.*}} shares-block-counts promoted
define ptx_kernel void @bounded_self_loop(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, 20
  br i1 %in, label %pre, label %done
pre:
  store i32 0, ptr addrspace(1) %out
  br label %head
head:
  %i = phi i32 [ 0, %pre ], [ %next, %head ]
  %next = add nuw nsw i32 %i, 1
  %x = xor i32 %next, %tid
  %go = icmp ne i32 %x, 7
  %room = icmp ult i32 %next, 100
  %back = and i1 %go, %room
  br i1 %back, label %head, label %done
done:
  ret void
}

; The header is its own latch in a loop without a trip count bound: its
; branch's probe counts it (and guards the loop's lane registers).
; CHECK-LABEL: define ptx_kernel void @self_loop(
; CHECK: head:
; CHECK-NOT: asm
; CHECK: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted)
; DB-LABEL: function self_loop kind=kernel
; DB: block id=2 {{.*}} header=true promoted{{$}}
define ptx_kernel void @self_loop(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, 20
  br i1 %in, label %pre, label %done
pre:
  store i32 0, ptr addrspace(1) %out
  br label %head
head:
  %i = phi i32 [ 0, %pre ], [ %next, %head ]
  %next = add nsw i32 %i, 1
  %x = xor i32 %next, %tid
  %back = icmp ne i32 %x, 7
  br i1 %back, label %head, label %done
done:
  ret void
}

; A bounded one-block loop whose back edge is its branch's successor 1:
; that side's counts need the branch's visits, which would be the header's,
; so the header keeps its probe.
; CHECK-LABEL: define ptx_kernel void @self_loop_second(
; CHECK: head:
; CHECK-NOT: asm
; CHECK: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted)
; DB-LABEL: function self_loop_second kind=kernel
; DB: block id=2 {{.*}} header=true promoted{{$}}
define ptx_kernel void @self_loop_second(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, 20
  br i1 %in, label %pre, label %done
pre:
  store i32 0, ptr addrspace(1) %out
  br label %head
head:
  %i = phi i32 [ 0, %pre ], [ %next, %head ]
  %next = add nuw nsw i32 %i, 1
  %x = xor i32 %next, %tid
  %stop = icmp eq i32 %x, 7
  %full = icmp uge i32 %next, 100
  %out.c = or i1 %stop, %full
  br i1 %out.c, label %done, label %head
done:
  ret void
}

; The latch calls (it may end lanes or come back with another mask): the
; header keeps its probe.
; CHECK-LABEL: define ptx_kernel void @latch_calls(
; CHECK: head:
; CHECK-NOT: asm
; CHECK: asm sideeffect "// ws:block {{[0-9]+}}\0A
; DB-LABEL: function latch_calls kind=kernel
; DB: block id=2 {{.*}} header=true{{$}}
define ptx_kernel void @latch_calls(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, 20
  br i1 %in, label %pre, label %done
pre:
  store i32 0, ptr addrspace(1) %out
  br label %head
head:
  %i = phi i32 [ 0, %pre ], [ %next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %done
latch:
  call void @side(ptr addrspace(1) %out)
  %next = add nsw i32 %i, 1
  %x = xor i32 %next, %tid
  %back = icmp ne i32 %x, 7
  br i1 %back, label %head, label %done
done:
  ret void
}

; The back edge is the latch's successor 1: derived all the same, over
; successor 1 (the latch's probe counts the latch's visits, its divergent
; visits and the arrivals at successor 0, which give successor 1's).
; CHECK-LABEL: define ptx_kernel void @back_edge_second(
; CHECK: head:
; CHECK-NOT: asm
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
; DB-LABEL: function back_edge_second kind=kernel
; DB: block id=2 {{.*}} header=true derived=branch2.succ1 entered-from=block1{{$}}
define ptx_kernel void @back_edge_second(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, 20
  br i1 %in, label %pre, label %done
pre:
  store i32 0, ptr addrspace(1) %out
  br label %head
head:
  %i = phi i32 [ 0, %pre ], [ %next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %done
latch:
  %next = add nsw i32 %i, 1
  %x = xor i32 %next, %tid
  %stop = icmp eq i32 %x, 7
  br i1 %stop, label %done, label %head
done:
  ret void
}

; Entered from a branch, not from a preheader of its own: the header keeps
; its probe.
; CHECK-LABEL: define ptx_kernel void @no_preheader(
; CHECK: head:
; CHECK-NOT: asm
; CHECK: asm sideeffect "// ws:block {{[0-9]+}} (promoted)
; DB-LABEL: function no_preheader kind=kernel
; DB: block id=1 {{.*}} header=true promoted{{$}}
define ptx_kernel void @no_preheader(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %in = icmp ult i32 %tid, 20
  br i1 %in, label %head, label %done
head:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %done
latch:
  %next = add nsw i32 %i, 1
  %x = xor i32 %next, %tid
  %back = icmp ne i32 %x, 7
  br i1 %back, label %head, label %done
done:
  ret void
}

declare void @side(ptr addrspace(1))
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx80" }
