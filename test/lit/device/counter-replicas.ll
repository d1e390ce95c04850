; Counter replicas (-warpscope-counter-replicas): the counter array holds N
; copies of the counters, each on its own 128-byte lines, and the probes add
; to the copy the clock's low bits pick (the runtime sums them): read once at
; the function's entry ("ws:replica", -warpscope-replica-per-warp, default)
; and handed to every probe, or read by each probe itself (REPL). One copy
; keeps addressing the array by its symbol. The database records the layout.
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-replica-per-warp=0 -warpscope-db-out=%tr.json -S %s | FileCheck %s --check-prefix=REPL
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-db-out=%t.json -S %s | FileCheck %s --check-prefix=DEF
; RUN: %dbdump %t.json | FileCheck %s --check-prefix=DEFDB
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-counter-replicas=4 -warpscope-db-out=%t4.json -S %s | FileCheck %s --check-prefix=FOUR
; RUN: %dbdump %t4.json | FileCheck %s --check-prefix=FOURDB
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-counter-replicas=1 -warpscope-db-out=%t1.json -S %s | FileCheck %s --check-prefix=ONE
; RUN: %dbdump %t1.json | FileCheck %s --check-prefix=ONEDB
; RUN: not %opt-ws -passes=warpscope-device -warpscope-counter-replicas=3 -warpscope-db-out=%t3.json -S %s 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: not %opt-ws -passes=warpscope-device -warpscope-counter-replicas=2048 -warpscope-db-out=%t3.json -S %s 2>&1 | FileCheck %s --check-prefix=BAD2048
;
; A module whose copies would exceed 4 MiB gets fewer: 1100 blocks of two
; words each (stride 2208 words) fit 128 copies, not 256.
; RUN: %python %S/Inputs/many-blocks.py 1100 > %t.big.ll
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-derive-equivalent-blocks=false -warpscope-cheaper-counting=false -warpscope-db-out=%tbig.json -S %t.big.ll | FileCheck %s --check-prefix=BIG
; RUN: %dbdump %tbig.json | FileCheck %s --check-prefix=BIGDB

target triple = "nvptx64-nvidia-cuda"

; 32 counter words: a stride of 32 words (256 bytes; BIG rounds up).
; DEF: @[[CTR:__warpscope_counters_[0-9a-f]+]] = addrspace(1) externally_initialized global [8192 x i64] zeroinitializer, align 128
; DEFDB: counters=32 {{.*}} replicas=256 stride=32
; FOUR: global [128 x i64] zeroinitializer, align 128
; FOURDB: counters=32 {{.*}} replicas=4 stride=32
; ONE: @[[CTR1:__warpscope_counters_[0-9a-f]+]] = addrspace(1) externally_initialized global [32 x i64] zeroinitializer, align 8
; ONEDB: counters=32 {{.*}} replicas=1 stride=32
; BAD: error: warpscope: -warpscope-counter-replicas=3 is not a power of two from 1 to 1024
; BAD2048: error: warpscope: -warpscope-counter-replicas=2048 is not a power of two from 1 to 1024
; BIG: global [282624 x i64] zeroinitializer, align 128
; BIGDB: counters=2200 {{.*}} replicas=128 stride=2208

; DEF-LABEL: define ptx_kernel void @branchy(
; DEF: %[[BASE:[0-9]+]] = call i64 asm sideeffect "// ws:replica\0A\09{\0A\09.reg .b32 %ws_replica;\0A\09.reg .b32 %wsk;\0A\09mov.u32 %wsk, %clock;\0A\09and.b32 %wsk, %wsk, 255;\0A\09mov.u64 $0, [[CTR]];\0A\09mad.wide.u32 $0, %wsk, 256, $0;\0A\09}", "=l"()
; DEF: call void asm sideeffect "// ws:block 0 ws:branch {{[0-9]+}}\0A{{.*}}activemask.b32 %wsm;{{.*}}setp.eq.u32 %wsp, %wsl, %wsn;{{.*}}@!%wsp bra ws_done;\0A\09.reg .b64 %wsg;\0A\09mov.u64 %wsg, $1;\0A\09red.global.add.u64 [%wsg+0], 1;{{.*}}red.global.add.u64 [%wsg+8], %wsc;{{.*}}@%wsd red.global.add.u64 [%wsg+{{[0-9]+}}], 1;{{.*}}ws_done:\0A\09}", "b,l"(i1 %{{[0-9]+}}, i64 %[[BASE]])
; DEF-NOT: %clock
; DEF: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}mov.u64 %wsg, $0;{{.*}}", "l"(i64 %[[BASE]])
; DEF-NOT: red.global.add.u64 [__warpscope_counters
; DEF-LABEL: define ptx_kernel void @switchy(
; DEF: %[[SBASE:[0-9]+]] = call i64 asm sideeffect "// ws:replica
; DEF: mov.u64 %wsg, $1;{{.*}}mov.u64 %wsr, %wsg;\0A\09mad.wide.u32 %wsr, %wsi, 8, %wsr;{{.*}}", "r,l"(i32 %{{.*}}, i64 %[[SBASE]])
; REPL-LABEL: define ptx_kernel void @branchy(
; REPL-NOT: ws:replica
; REPL: call void asm sideeffect "// ws:block 0 ws:branch {{[0-9]+}}\0A{{.*}}@!%wsp bra ws_done;\0A\09.reg .b32 %wsk;\0A\09.reg .b64 %wsg;\0A\09mov.u32 %wsk, %clock;\0A\09and.b32 %wsk, %wsk, 255;\0A\09mov.u64 %wsg, __warpscope_counters_{{[0-9a-f]+}};\0A\09mad.wide.u32 %wsg, %wsk, 256, %wsg;\0A\09red.global.add.u64 [%wsg+0], 1;{{.*}}", "b"(i1
; FOUR-LABEL: define ptx_kernel void @branchy(
; FOUR: and.b32 %wsk, %wsk, 3;\0A\09mov.u64 $0, __warpscope_counters_{{[0-9a-f]+}};\0A\09mad.wide.u32 $0, %wsk, 256, $0;
; ONE-LABEL: define ptx_kernel void @branchy(
; ONE-NOT: %clock
; ONE: @!%wsp bra ws_done;\0A\09red.global.add.u64 [[[CTR1]]+0], 1;
; ONE-LABEL: define ptx_kernel void @switchy(
; ONE-NOT: %wsg
; ONE: mov.u64 %wsr, [[CTR1]];
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

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
