; Lane-local loop counters (default): a promoted loop whose trip count per
; entry SCEV bounds below 2^32 counts in 32-bit registers of every lane: each
; lane adds 1 for itself (thread executions) and for its own side
; (successor-0 threads), the elected leader 1 for its group (warp
; executions, divergent visits); no popc, no 64-bit add. At each exit the
; lanes there sum every thread-level register with redux.sync (in 16-bit
; halves when 32 lanes' sums could reach 2^32) and the leader adds the
; non-zero sums; warp-level registers (non-zero only in lanes that led) each
; such lane adds itself. A loop with no such bound counts in lane registers
; too when a probe that counts its block's threads runs every iteration: a
; guard after it spills every lane's registers before that count wraps
; (-warpscope-guarded-lane-counters=0: the leader's 64-bit registers). A
; target without redux.sync (before sm_80) and -warpscope-lane-loop-counters=0
; keep the 64-bit registers.
; (-warpscope-pack-lane-counters=0: 16-bit fields are lane-packed-counters.ll's.)
; (-warpscope-derive-loop-headers=0: loop headers counted from their preheader are derived-loop-headers.ll's.)
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-pack-lane-counters=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-pack-lane-counters=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-lane-loop-counters=0 -warpscope-db-out=%t.off.json -S %s | FileCheck --check-prefix=OFF %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-pack-lane-counters=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-guarded-lane-counters=0 -warpscope-db-out=%t.ng.json -S %s | FileCheck --check-prefix=NOGUARD %s
; RUN: sed 's/"target-cpu"="sm_90"/"target-cpu"="sm_70"/' %s | %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-pack-lane-counters=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-db-out=%t.70.json -S | FileCheck --check-prefix=OFF %s

target triple = "nvptx64-nvidia-cuda"

; %tid < 1024: at most 1024 iterations, so 32 lanes' sums stay below 2^32:
; one redux per register.
; CHECK-LABEL: define ptx_kernel void @small_bound(
; CHECK: asm sideeffect "// ws:init {{[0-9]+}}\0A{{.*}}mov.u32 $3, 0;\0A\09}", "=r,=r,=r,=r"()
; CHECK: body:
; CHECK: call { i32, i32, i32, i32 } asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted)\0A{{.*}}activemask.b32 %wsm;\0A\09elect.sync _|%wsp, %wsm;\0A\09vote.sync.ballot.b32 %wsb, $8, %wsm;\0A\09@%wsp add.u32 $0, $0, 1;\0A\09add.u32 $1, $1, 1;\0A\09setp.ne.and.u32 %wsa, %wsb, 0, %wsp;\0A\09setp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\0A\09@%wsd add.u32 $2, $2, 1;\0A\09@$8 add.u32 $3, $3, 1;\0A\09}", "=r,=r,=r,=r,0,1,2,3,b"
; CHECK-NOT: popc
; CHECK: exit:
; CHECK: asm sideeffect "// ws:flush {{[0-9]+}}\0A{{.*}}activemask.b32 %wsm;\0A\09elect.sync _|%wsp, %wsm;\0A\09setp.ne.u32 %wsq, $0, 0;\0A\09cvt.u64.u32 %wsc, $0;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+16], %wsc;\0A\09mov.u32 $0, 0;\0A\09redux.sync.add.u32 %wsn, $1, %wsm;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09setp.ne.and.u64 %wsq, %wsc, 0, %wsp;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+24], %wsc;\0A\09mov.u32 $1, 0;
; CHECK-NOT: shr.u32
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @small_bound(
; OFF: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted){{.*}}@%wsp mad.wide.u32 $1, %wsn, 1, $1;{{.*}}", "=l,=l,=l,=l,0,1,2,3,b"
; OFF-NOT: redux
; OFF: ret void
define ptx_kernel void @small_bound(ptr addrspace(1) %out) #0 {
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

; An i32 bound: a lane may run 2^27 times or more, so each register is
; summed in 16-bit halves (no sum of 32 lanes can wrap) and put together in
; 64 bits.
; CHECK-LABEL: define ptx_kernel void @i32_bound(
; CHECK: (promoted){{.*}}add.u32
; CHECK: asm sideeffect "// ws:flush {{[0-9]+}}\0A{{.*}}shr.u32 %wsh, $1, 16;\0A\09and.b32 %wsn, $1, 65535;\0A\09redux.sync.add.u32 %wsh, %wsh, %wsm;\0A\09redux.sync.add.u32 %wsn, %wsn, %wsm;\0A\09mul.wide.u32 %wsc, %wsh, 65536;\0A\09cvt.u64.u32 %wst, %wsn;\0A\09add.u64 %wsc, %wsc, %wst;\0A\09setp.ne.and.u64 %wsq, %wsc, 0, %wsp;
; CHECK: ret void
define ptx_kernel void @i32_bound(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %skip = icmp eq i32 %n, 0
  br i1 %skip, label %done, label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %x = xor i32 %i, %tid
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %i, ptr addrspace(1) %p
  %next = add nuw i32 %i, 1
  %odd = and i32 %x, 1
  %c = icmp ne i32 %odd, 0
  %lt = icmp ult i32 %next, %n
  %more = and i1 %lt, %c
  br i1 %more, label %body, label %done
done:
  ret void
}

; The exit depends on loaded data: no bound. The latch's probe counts its
; block's threads ($1) and runs every iteration: after it, a guard spills all
; of a lane's registers (each by itself) once that count reaches 2^32 - 2.
; CHECK-LABEL: define ptx_kernel void @unbounded(
; CHECK: body:
; CHECK: (promoted){{.*}}", "=r,=r,=r,=r,0,1,2,3,b"
; CHECK-NEXT: extractvalue
; CHECK: call { i32, i32, i32, i32 } asm sideeffect "// ws:guard {{[0-9]+}}\0A\09{\0A\09.reg .b32 %ws_guard_{{[0-9]+}};\0A\09.reg .pred %wso;\0A\09.reg .b64 %wsc;\0A\09setp.lt.u32 %wso, $1, 4294967294;\0A\09@%wso bra ws_kept;\0A\09cvt.u64.u32 %wsc, $0;\0A\09red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+{{[0-9]+}}], %wsc;\0A\09mov.u32 $0, 0;{{.*}}mov.u32 $3, 0;\0Aws_kept:\0A\09}", "=r,=r,=r,=r,0,1,2,3"
; CHECK: br i1 %more, label %body, label %exit
; CHECK: exit:
; CHECK: ws:flush {{[0-9]+}}\0A{{.*}}shr.u32 %wsh, $1, 16;
; CHECK: ret void
; NOGUARD-LABEL: define ptx_kernel void @unbounded(
; NOGUARD: (promoted){{.*}}", "=l,=l,=l,=l,0,1,2,3,b"
; NOGUARD-NOT: ws:guard
; NOGUARD: ret void
define ptx_kernel void @unbounded(ptr addrspace(1) %in) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %start = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  br label %body
body:
  %p = phi ptr addrspace(1) [ %start, %entry ], [ %q, %body ]
  %v = load i32, ptr addrspace(1) %p
  %q = getelementptr i32, ptr addrspace(1) %p, i32 1
  %more = icmp ne i32 %v, 0
  br i1 %more, label %body, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx80" }
