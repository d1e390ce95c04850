; The replica's offset (-warpscope-replica-offset, default off): with counter
; replicas the function picks its replica at the entry ("ws:replica") as a
; 32-bit byte offset in the counter array, and every probe in memory adds
; the array's address to it, so one register is live between the probes
; instead of a 64-bit address's two. The sync-free probes, the switch
; probes and the loop-entry probes take it alike. Off (ADDR): the 64-bit
; address, as in counter-replicas.ll.
; RUN: %opt-ws -passes=warpscope-device -warpscope-replica-offset -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-db-out=%t0.json -S %s | FileCheck %s --check-prefix=ADDR

target triple = "nvptx64-nvidia-cuda"

; 48 counter words: replicas 384 bytes apart; the offset is at most 255 * 384.
; CHECK: @[[CTR:__warpscope_counters_[0-9a-f]+]] = addrspace(1) externally_initialized global [12288 x i64]
; CHECK-LABEL: define ptx_kernel void @branchy(
; CHECK: %[[OFF:[0-9]+]] = call i32 asm sideeffect "// ws:replica\0A\09{\0A\09.reg .b32 %ws_replica;\0A\09.reg .b32 %wsk;\0A\09mov.u32 %wsk, %clock;\0A\09and.b32 %wsk, %wsk, 255;\0A\09mul.lo.u32 $0, %wsk, 384;\0A\09}", "=r"()
; CHECK: call void asm sideeffect "// ws:block 0 ws:branch {{[0-9]+}}\0A{{.*}}.reg .b64 %wsg;\0A\09mov.u64 %wsg, [[CTR]];\0A\09mad.wide.u32 %wsg, $1, 1, %wsg;\0A{{.*}}red.global.add.u64 [%wsg+0], 1;{{.*}}", "b,r"(i1 %{{[0-9]+}}, i32 %[[OFF]])
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}mov.u64 %wsg, [[CTR]];\0A\09mad.wide.u32 %wsg, $0, 1, %wsg;{{.*}}", "r"(i32 %[[OFF]])
; CHECK-NOT: %clock
; CHECK-LABEL: define ptx_kernel void @switchy(
; CHECK: %[[SOFF:[0-9]+]] = call i32 asm sideeffect "// ws:replica
; CHECK: mov.u64 %wsg, [[CTR]];\0A\09mad.wide.u32 %wsg, $1, 1, %wsg;{{.*}}mov.u64 %wsr, %wsg;\0A\09mad.wide.u32 %wsr, %wsi, 8, %wsr;{{.*}}", "r,r"(i32 %k, i32 %[[SOFF]])
; CHECK-LABEL: define ptx_kernel void @critical(
; CHECK: %[[EOFF:[0-9]+]] = call i32 asm sideeffect "// ws:replica
; CHECK: "// ws:entry {{[0-9]+}}\0A{{.*}}@!%wsp bra ws_done;\0A\09.reg .b64 %wsg;\0A\09mov.u64 %wsg, [[CTR]];\0A\09mad.wide.u32 %wsg, $1, 1, %wsg;\0A\09red.global.add.u64 [%wsg+{{[0-9]+}}], 1;{{.*}}", "b,r"(i1 %guard, i32 %[[EOFF]])
; ADDR-LABEL: define ptx_kernel void @branchy(
; ADDR: %[[BASE:[0-9]+]] = call i64 asm sideeffect "// ws:replica{{.*}}mov.u64 $0, __warpscope_counters_{{[0-9a-f]+}};\0A\09mad.wide.u32 $0, %wsk, 384, $0;\0A\09}", "=l"()
; ADDR-NOT: mul.lo.u32
; ADDR: "b,l"(i1 %{{[0-9]+}}, i64 %[[BASE]])
; ADDR-LABEL: define ptx_kernel void @switchy(
; ADDR: "r,l"(i32 %k, i64 %{{[0-9]+}})
; ADDR-LABEL: define ptx_kernel void @critical(
; ADDR: "// ws:entry {{.*}}mov.u64 %wsg, $1;{{.*}}", "b,l"(i1 %guard, i64 %{{[0-9]+}})
define ptx_kernel void @branchy(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bit = and i32 %tid, 1
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %then, label %join
then:
  store i32 1, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

define ptx_kernel void @switchy(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %k = and i32 %tid, 3
  switch i32 %k, label %other [
    i32 0, label %zero
    i32 1, label %one
  ]
zero:
  store i32 0, ptr addrspace(1) %out
  br label %done
one:
  store i32 1, ptr addrspace(1) %out
  br label %done
other:
  store i32 2, ptr addrspace(1) %out
  br label %done
done:
  ret void
}

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

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx86" }
