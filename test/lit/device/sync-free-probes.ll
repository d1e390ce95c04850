; Probes in memory of blocks and two-way branches use no warp-synchronous
; instruction (-warpscope-sync-free-probes, default on): ptxas allocates
; many more registers to a function with elect/vote .sync in divergent code.
; The leader is the highest lane of the active mask; the lanes going to
; successor 0 branch into a region whose active mask is their ballot, and
; their leader adds its popc, the arrival, and a divergent visit when that
; mask is not the group's.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -warpscope-sync-free-probes=false -S %s | FileCheck %s --check-prefix=VOTE

target triple = "nvptx64-nvidia-cuda"

; The outer branch's probe (merged with its block): the group's leader adds
; the block's counts, then successor 0's lanes count themselves. The
; condition is handed over negated (true: successor 1), so those lanes skip
; where it holds. The nested branch's block is derived from the outer
; branch: its probe counts no visits.
; CHECK-LABEL: define ptx_kernel void @nested(
; CHECK-NOT: .sync
; CHECK: ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}setp.eq.u32 %wsp, %wsl, %wsn;\0A\09@!%wsp bra ws_led;\0A{{.*}}ws_led:\0A\09@$0 bra ws_done;\0A\09activemask.b32 %wsb;
; CHECK-NOT: .sync
; CHECK: ws:branch {{[0-9]+}}\0A
; CHECK-SAME: activemask.b32 %wsm;\0A\09mov.u32 %wsl, %laneid;\0A\09@$0 bra ws_done;\0A\09activemask.b32 %wsb;\0A\09bfind.u32 %wsn, %wsb;\0A\09setp.eq.u32 %wsp, %wsl, %wsn;\0A\09@!%wsp bra ws_done;\0A\09setp.ne.u32 %wsd, %wsb, %wsm;\0A\09red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+{{[0-9]+}}], 1;\0A\09@%wsd red.global.add.u64 [{{[^]]+}}], 1;\0A\09popc.b32 %wsn, %wsb;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09red.global.add.u64 [{{[^]]+}}], %wsc;\0Aws_done:
; CHECK-NOT: .sync
; CHECK: ret void
; VOTE-LABEL: define ptx_kernel void @nested(
; VOTE: elect.sync
; VOTE: vote.sync.ballot.b32 %wsb
define ptx_kernel void @nested(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %small = icmp ult i32 %tid, 8
  br i1 %small, label %inner, label %done

inner:
  %sum = add i32 %tid, %n
  %in = icmp slt i32 %sum, 100
  br i1 %in, label %write, label %done

write:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %sum, ptr addrspace(1) %p
  br label %done

done:
  ret void
}

; A block probe: the leader's two adds in one region, no election by
; elect.sync.
; CHECK-LABEL: define ptx_kernel void @block(
; CHECK: ws:block {{[0-9]+}}{{.*}}bfind.u32 %wsn, %wsm;\0A\09setp.eq.u32 %wsp, %wsl, %wsn;\0A\09@!%wsp bra ws_led;\0A\09red.global.add.u64 [{{[^]]+}}+{{[0-9]+}}], 1;\0A\09popc.b32 %wsn, %wsm;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09red.global.add.u64 [{{[^]]+}}+{{[0-9]+}}], %wsc;\0Aws_led:
; CHECK-NOT: .sync
; CHECK: ret void
define ptx_kernel void @block(ptr addrspace(1) %out) #0 {
  store i32 1, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
