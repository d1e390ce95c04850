; Loop counter promotion: inside a loop without calls, probes count in the
; leader lane's 64-bit registers (here with lane-local 32-bit registers off:
; lane-loop-counters.ll tests those) (one per counter word); the registers start
; at zero at the function's entry ("ws:init"), and at each loop exit
; ("ws:flush", after the exit's own probe) every lane that led somewhere
; (the OR of each probe's first register is non-zero) adds its registers to
; the counters and zeroes them. The probe keeps its marker scope.
; (-warpscope-derive-loop-headers=0: loop headers counted from their preheader are derived-loop-headers.ll's.)
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-lane-loop-counters=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-lane-loop-counters=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-promote-loop-counters=false -warpscope-db-out=%t.off.json -S %s | FileCheck --check-prefix=OFF %s
; RUN: %dbdump %t.off.json | FileCheck --check-prefix=DBOFF %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-lane-loop-counters=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-promote-block-probes -warpscope-promote-skip-short-loops=false -warpscope-db-out=%t.all.json -S %s | FileCheck --check-prefix=ALL %s
; Histograms' edge arrivals (on by default; off above to keep the checks short)
; add a fifth register to a promoted two-way probe: +1 when any lane goes to
; successor 0, flushed to the branch record's arrivals word.
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-lane-loop-counters=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-branch-through-probe=0 -S %s | FileCheck --check-prefix=EDGE %s

target triple = "nvptx64-nvidia-cuda"

; A divergent latch: block and branch probe merged, counting block warp and
; thread executions, divergent visits and successor-0 threads (4 words).
; EDGE-LABEL: define ptx_kernel void @latch(
; EDGE: asm sideeffect "// ws:init 2\0A{{.*}}mov.u64 $4, 0;\0A\09}", "=l,=l,=l,=l,=l"()
; EDGE: asm sideeffect "// ws:block 2 ws:branch 4 (promoted){{.*}}@%wsp selp.u64 %wsx, 1, 0, %wsa;\0A\09@%wsp add.u64 $4, $4, %wsx;\0A\09}", "=l,=l,=l,=l,=l,0,1,2,3,4,b"
; EDGE: ws:flush 2{{.*}}red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+64], $4;
; CHECK-LABEL: define ptx_kernel void @latch(
; CHECK: entry:
; CHECK: call { i64, i64, i64, i64 } asm sideeffect "// ws:init 2\0A\09{\0A\09.reg .b32 %ws_init_2;\0A\09mov.u64 $0, 0;\0A\09mov.u64 $1, 0;\0A\09mov.u64 $2, 0;\0A\09mov.u64 $3, 0;\0A\09}", "=l,=l,=l,=l"()
; CHECK: body:
; CHECK-COUNT-4: = phi i64 [ %{{[0-9]+}}, %entry ], [ %{{[0-9]+}}, %body ]
; CHECK: call { i64, i64, i64, i64 } asm sideeffect "// ws:block 2 ws:branch 4 (promoted)\0A\09{\0A\09.reg .b32 %ws_block_2_branch_4;{{.*}}activemask.b32 %wsm;\0A\09elect.sync _|%wsp, %wsm;\0A\09vote.sync.ballot.b32 %wsb, $8, %wsm;\0A\09@%wsp add.u64 $0, $0, 1;\0A\09@%wsp popc.b32 %wsn, %wsm;\0A\09@%wsp mad.wide.u32 $1, %wsn, 1, $1;\0A\09@%wsp setp.ne.u32 %wsa, %wsb, 0;\0A\09@%wsp setp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\0A\09@%wsp selp.u64 %wsx, 1, 0, %wsd;\0A\09@%wsp add.u64 $2, $2, %wsx;\0A\09@%wsp popc.b32 %wsn, %wsb;\0A\09@%wsp mad.wide.u32 $3, %wsn, 1, $3;\0A\09}", "=l,=l,=l,=l,0,1,2,3,b"(i64 %ws.acc.0, i64 %ws.acc1.0, i64 %ws.acc2.0, i64 %ws.acc3.0, i1 %more)
; CHECK-NOT: red.global
; CHECK: br i1 %more, label %body, label %exit
; CHECK: exit:
; CHECK-NEXT: call void asm sideeffect "// ws:block 9\0A
; CHECK-NEXT: call { i64, i64, i64, i64 } asm sideeffect "// ws:flush 2\0A\09{\0A\09.reg .b32 %ws_flush_2;\0A\09.reg .pred %wsq;\0A\09.reg .b64 %wst;\0A\09setp.ne.u64 %wsq, $0, 0;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_[[ID:[0-9a-f]+]]+16], $0;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_[[ID]]+24], $1;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_[[ID]]+40], $2;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_[[ID]]+56], $3;\0A\09@%wsq mov.u64 $0, 0;\0A\09@%wsq mov.u64 $1, 0;\0A\09@%wsq mov.u64 $2, 0;\0A\09@%wsq mov.u64 $3, 0;\0A\09}", "=l,=l,=l,=l,0,1,2,3"
; CHECK: ret void
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

; A derived block inside the loop needs successor-0 arrivals (a fifth word,
; from the same ballot); an exit also reached from outside the loop
; (%done: from %entry and from %latch) flushes there too, zeroes for lanes
; that never entered. A probe of a block alone stays as it is (promoted it
; would cost about as many instructions, plus two registers to zero and
; flush) unless -warpscope-promote-block-probes.
; CHECK-LABEL: define ptx_kernel void @arrivals(
; CHECK: asm sideeffect "// ws:init
; CHECK: head:
; CHECK: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted){{.*}}@%wsp selp.u64 %wsx, 1, 0, %wsa;\0A\09@%wsp add.u64 $4, $4, %wsx;\0A\09}"
; CHECK: then:
; CHECK-NEXT: asm sideeffect "// ws:block {{[0-9]+}} (derived)
; CHECK: latch:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}red.global
; CHECK: done:
; CHECK: asm sideeffect "// ws:flush {{[0-9]+}}\0A{{.*}}.reg .b64 %wst;\0A\09setp.ne.u64 %wsq, $0, 0;
; CHECK: ret void
; ALL-LABEL: define ptx_kernel void @arrivals(
; ALL: latch:
; ALL: asm sideeffect "// ws:block {{[0-9]+}} (promoted){{.*}}@%wsp add.u64 $0, $0, 1;\0A\09@%wsp popc.b32 %wsn, %wsm;\0A\09@%wsp mad.wide.u32 $1, %wsn, 1, $1;\0A\09}", "=l,=l,0,1"
; ALL: done:
; ALL: asm sideeffect "// ws:flush {{[0-9]+}}\0A{{.*}}or.b64 %wst, $0, $5;\0A\09setp.ne.u64 %wsq, %wst, 0;
define ptx_kernel void @arrivals(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %skip = icmp eq i32 %n, 0
  br i1 %skip, label %done, label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %bit = and i32 %i, %tid
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %then, label %latch
then:
  store i32 %i, ptr addrspace(1) %out
  br label %latch
latch:
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, %n
  br i1 %more, label %head, label %done
done:
  ret void
}

; A call that always comes back (a definition in the module that cannot end
; a lane) is no obstacle; one that may not (a declaration, or a definition
; that traps) is.
; CHECK-LABEL: define ptx_kernel void @calls_returning(
; CHECK: (promoted)
; CHECK: ws:flush
; CHECK: ret void
define ptx_kernel void @calls_returning(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %v = call i32 @returns(i32 %i)
  %next = add i32 %i, %v
  %more = icmp ult i32 %next, %tid
  br i1 %more, label %body, label %exit
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @calls_trapping(
; CHECK-NOT: promoted
; CHECK-NOT: ws:flush
; CHECK: ret void
define ptx_kernel void @calls_trapping(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %v = call i32 @traps(i32 %i)
  %next = add i32 %i, %v
  %more = icmp ult i32 %next, %tid
  br i1 %more, label %body, label %exit
exit:
  ret void
}

define i32 @returns(i32 %x) #0 {
  %y = mul i32 %x, 3
  %z = add i32 %y, 1
  ret i32 %z
}

define i32 @traps(i32 %x) #0 {
  %bad = icmp eq i32 %x, 77
  br i1 %bad, label %t, label %ok
t:
  call void @llvm.trap()
  unreachable
ok:
  ret i32 1
}

declare void @llvm.trap()

; A call in the loop may not come back: no promotion.
; CHECK-LABEL: define ptx_kernel void @calls(
; CHECK-NOT: promoted
; CHECK-NOT: ws:flush
; CHECK: ret void
define ptx_kernel void @calls(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %v = call i32 @f(i32 %i)
  %next = add i32 %i, %v
  %more = icmp ult i32 %next, %tid
  br i1 %more, label %body, label %exit
exit:
  ret void
}

; The first loop's exit is the second loop's header: its flush would run on
; every iteration of that loop, so only the second loop is promoted.
; CHECK-LABEL: define ptx_kernel void @sibling(
; CHECK: first:
; CHECK-NOT: promoted
; CHECK: second:
; CHECK: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted)
; CHECK: after:
; CHECK: asm sideeffect "// ws:flush
define ptx_kernel void @sibling(ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %first
first:
  %i = phi i32 [ 0, %entry ], [ %inext, %first ]
  %inext = add i32 %i, 1
  %imore = icmp ult i32 %inext, %tid
  br i1 %imore, label %first, label %second
second:
  %j = phi i32 [ %i, %first ], [ %jnext, %second ]
  %jnext = add i32 %j, 3
  %jmore = icmp ult i32 %jnext, %tid
  br i1 %jmore, label %second, label %after
after:
  store i32 %j, ptr addrspace(1) %out
  ret void
}

; A loop stepping by the block size runs a few times per lane (the block's
; threads share its work): not promoted unless
; -warpscope-promote-skip-short-loops=false.
; CHECK-LABEL: define ptx_kernel void @block_stride(
; CHECK-NOT: promoted
; CHECK-NOT: ws:flush
; CHECK: ret void
; ALL-LABEL: define ptx_kernel void @block_stride(
; ALL: (promoted)
; ALL: ws:flush
define ptx_kernel void @block_stride(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %body
body:
  %i = phi i32 [ %tid, %entry ], [ %next, %body ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %p
  %next = add nuw nsw i32 %i, %ntid
  %more = icmp slt i32 %next, %n
  br i1 %more, label %body, label %exit
exit:
  ret void
}

; OFF-LABEL: define ptx_kernel void @latch(
; OFF-NOT: promoted
; OFF-NOT: ws:init
; OFF-NOT: ws:flush
; OFF: ret void

declare i32 @f(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }

; DB-LABEL: function latch kind=kernel
; DB-NEXT: block id=0 {{.*}}header=false{{$}}
; DB-NEXT: block id=1 {{.*}}header=true promoted{{$}}
; DB-NEXT: block id=2 {{.*}}header=false{{$}}
; DB-NEXT: branch id=0 block=1 {{.*}} shares-block-counts promoted{{$}}
; DB-LABEL: function arrivals kind=kernel
; DB: block id=1 {{.*}}header=true promoted{{$}}
; DB-NEXT: block id=2 {{.*}} derived=branch1.succ0{{$}}
; DB-NEXT: block id=3 {{.*}}header=false{{$}}
; DB: branch id=1 block=1 {{.*}} shares-block-counts promoted{{$}}
; DB-NEXT: branch id=2 block=3 kind=br {{.*}} probed=false {{.*}}{{[0-9]$}}
; DB-LABEL: function calls kind=kernel
; DB-NOT: promoted
; DB-LABEL: function sibling kind=kernel
; DB-NEXT: block id=0 {{.*}}header=false{{$}}
; DB-NEXT: block id=1 {{.*}}header=true{{$}}
; DB-NEXT: block id=2 {{.*}}header=true promoted{{$}}
; DBOFF-NOT: promoted
