; Packed lane-local counters (-warpscope-pack-lane-counters, default on): in a
; lane-local loop whose trip count per entry SCEV bounds at 65535 or less, a
; lane's count never exceeds 65535, so two counts share one 32-bit register
; as 16-bit fields. Each count is still one add of a constant (1 for the low
; field, 65536 for the high one); the flush extracts each field (and / shr)
; before its warp sum or its leader's atomic, and zeroes each register after
; its second field. A loop that may run 65536 times keeps one register per
; count; one without a bound packs with a guard that spills before 65535.
; (-warpscope-derive-loop-headers=0: loop headers counted from their preheader are derived-loop-headers.ll's.)
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-derive-loop-headers=0 -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-edge-arrivals=0 -warpscope-branch-through-probe=0 -warpscope-pack-lane-counters=0 -warpscope-db-out=%t.off.json -S %s | FileCheck --check-prefix=OFF %s

target triple = "nvptx64-nvidia-cuda"

; At most 65535 iterations ((%n + %tid) & 65535 of them, which differ between lanes): four counts in two
; registers: the block's warp and thread executions (+56, +64) in register
; 0, the branch's divergent visits and successor-0 threads (+80, +96) in
; register 1.
; CHECK-LABEL: define ptx_kernel void @fits(
; CHECK: asm sideeffect "// ws:init {{[0-9]+}}\0A\09{\0A\09.reg .b32 %ws_init_{{[0-9]+}};\0A\09mov.u32 $0, 0;\0A\09mov.u32 $1, 0;\0A\09}", "=r,=r"()
; CHECK: body:
; CHECK: call { i32, i32 } asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted)\0A{{.*}}vote.sync.ballot.b32 %wsb, $4, %wsm;\0A\09@%wsp add.u32 $0, $0, 1;\0A\09add.u32 $0, $0, 65536;\0A\09setp.ne.and.u32 %wsa, %wsb, 0, %wsp;\0A\09setp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\0A\09@%wsd add.u32 $1, $1, 1;\0A\09@$4 add.u32 $1, $1, 65536;\0A\09}", "=r,=r,0,1,b"
; CHECK: exit:
; CHECK: asm sideeffect "// ws:flush {{[0-9]+}}\0A{{.*}}and.b32 %wsn, $0, 65535;\0A\09setp.ne.u32 %wsq, %wsn, 0;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+56], %wsc;\0A\09shr.u32 %wsn, $0, 16;\0A\09redux.sync.add.u32 %wsn, %wsn, %wsm;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09setp.ne.and.u64 %wsq, %wsc, 0, %wsp;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+64], %wsc;\0A\09mov.u32 $0, 0;\0A\09and.b32 %wsn, $1, 65535;\0A\09setp.ne.u32 %wsq, %wsn, 0;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+80], %wsc;\0A\09shr.u32 %wsn, $1, 16;\0A\09redux.sync.add.u32 %wsn, %wsn, %wsm;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09setp.ne.and.u64 %wsq, %wsc, 0, %wsp;\0A\09@%wsq red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+96], %wsc;\0A\09mov.u32 $1, 0;\0A\09}", "=r,=r,0,1"
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @fits(
; OFF: call { i32, i32, i32, i32 } asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted){{.*}}add.u32 $1, $1, 1;{{.*}}", "=r,=r,=r,=r,0,1,2,3,b"
; OFF-NOT: 65536
; OFF: ret void
define ptx_kernel void @fits(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = add i32 %n, %tid
  %m = and i32 %v, 65535
  %any = icmp ne i32 %m, 0
  br i1 %any, label %body, label %exit
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %next, %m
  br i1 %more, label %body, label %exit
exit:
  store i32 %n, ptr addrspace(1) %out
  ret void
}

; Up to 65536 iterations (%i runs from 0 to (%n + %tid) & 65535
; inclusive): a lane's
; count may reach 65536, which a 16-bit field cannot hold: four registers.
; CHECK-LABEL: define ptx_kernel void @one_too_many(
; CHECK: call { i32, i32, i32, i32 } asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted){{.*}}@%wsp add.u32 $0, $0, 1;\0A\09add.u32 $1, $1, 1;{{.*}}", "=r,=r,=r,=r,0,1,2,3,b"
; CHECK: exit:
; CHECK: asm sideeffect "// ws:flush
; CHECK-NOT: 65535
; CHECK-SAME: "=r,=r,=r,=r,0,1,2,3"
; CHECK: ret void
define ptx_kernel void @one_too_many(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = add i32 %n, %tid
  %m = and i32 %v, 65535
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %next = add nuw nsw i32 %i, 1
  %more = icmp ule i32 %next, %m
  br i1 %more, label %body, label %exit
exit:
  store i32 %n, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; No trip count bound (a pointer chase): guarded lane-local registers pack
; too. The guard probe's words come first, so its thread count is the high
; half of register 0 and the guard compares the whole register with the
; limit (2^32 - 2 by default, at most 65534 packed) shifted up 16 bits; the
; spill extracts every field before its atomic, and zeroes each register
; after its second field.
; CHECK-LABEL: define ptx_kernel void @guarded(
; CHECK: body:
; CHECK: call { i32, i32 } asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted){{.*}}@%wsp add.u32 $0, $0, 1;\0A\09add.u32 $0, $0, 65536;{{.*}}", "=r,=r,0,1,b"
; CHECK: asm sideeffect "// ws:guard {{[0-9]+}}\0A\09{\0A\09.reg .b32 %ws_guard_{{[0-9]+}};\0A\09.reg .pred %wso;\0A\09.reg .b32 %wsn;\0A\09.reg .b64 %wsc;\0A\09setp.lt.u32 %wso, $0, 4294836224;\0A\09@%wso bra ws_kept;\0A\09and.b32 %wsn, $0, 65535;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+{{[0-9]+}}], %wsc;\0A\09shr.u32 %wsn, $0, 16;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+{{[0-9]+}}], %wsc;\0A\09mov.u32 $0, 0;\0A\09and.b32 %wsn, $1, 65535;{{.*}}mov.u32 $1, 0;\0Aws_kept:\0A\09}", "=r,=r,0,1"
; CHECK: exit:
; CHECK: ws:flush
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @guarded(
; OFF: asm sideeffect "// ws:guard {{[0-9]+}}\0A\09{\0A\09.reg .b32 %ws_guard_{{[0-9]+}};\0A\09.reg .pred %wso;\0A\09.reg .b64 %wsc;\0A\09setp.lt.u32 %wso, $1, 4294967294;\0A\09@%wso bra ws_kept;\0A\09cvt.u64.u32 %wsc, $0;
; OFF: ret void
define ptx_kernel void @guarded(ptr addrspace(1) %in) #0 {
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

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx80" }
