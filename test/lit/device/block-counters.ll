; Every block gets one block probe at its first insertion point; records are
; two words apart and the counter array covers them all.
; (Loop counter promotion off: loop-promotion.ll tests that form; blocks
; taking a dominator's counts off: equivalent-blocks.ll tests those.)
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-reduce-loops-first=0 -warpscope-counter-replicas=1 -warpscope-promote-loop-counters=false -warpscope-derive-equivalent-blocks=false -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @[[CTR:__warpscope_counters_[0-9a-f]+]] = addrspace(1) externally_initialized global [6 x i64] zeroinitializer, align 8

; CHECK-LABEL: define ptx_kernel void @blocks(
; CHECK: entry:
; The leader's atomics lie in one region a branch skips for the other lanes.
; CHECK-NEXT: call void asm sideeffect "// ws:block 0\0A\09{{.*}}activemask.b32 %wsm;{{.*}}bfind.u32 %wsn, %wsm;{{.*}}@!%wsp bra ws_done;\0A\09red.global.add.u64 [[[CTR]]+0], 1;\0A\09popc.b32 %wsn, %wsm;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09red.global.add.u64 [[[CTR]]+8], %wsc;\0Aws_done:\0A\09}", ""() #[[ATTR:[0-9]+]]
; CHECK: loop:
; CHECK-NEXT: phi
; CHECK-NEXT: call void asm sideeffect "// ws:block 2{{.*}}[[[CTR]]+16], 1;{{.*}}[[[CTR]]+24], %wsc;
; CHECK: exit:
; CHECK-NEXT: call void asm sideeffect "// ws:block 4{{.*}}[[[CTR]]+32], 1;{{.*}}[[[CTR]]+40], %wsc;
; CHECK-NOT: ws:branch
; CHECK: attributes #[[ATTR]] = { convergent nounwind }
define ptx_kernel void @blocks(ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  store i32 %i, ptr addrspace(1) %out
  ret void
}

; DB: module id=[[ID:[0-9a-f]+]] counters=6 symbol=__warpscope_counters_[[ID]] schema=warpscope-db/4
; DB-NEXT: function blocks kind=kernel demangled=blocks line=0
; DB-NEXT: block id=0 counter=0 loc=:0:0 depth=0 header=false
; DB-NEXT: block id=1 counter=2 loc=:0:0 depth=1 header=true
; DB-NEXT: block id=2 counter=4 loc=:0:0 depth=0 header=false
; DB-NEXT: branch id=0 block=1 kind=br succ=2,1 uniform=true probed=false counter=-1 loc=:0:0
