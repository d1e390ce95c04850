; Case blocks whose only way in is their switch, through one case value,
; get no probe of their own, only a marker with one dead mov: their counts
; are their successor's threads and arrivals in the switch's record. The
; switch's probe then also counts arrivals: the leader of each successor
; group adds 1 at its successor's arrivals word (the record's last words,
; after the uniform visits). Not derived: a block that several case values
; or the default lead to (the lowered switch may reach it over several
; edges, its lanes arriving as several groups), the join (another way in)
; and a case block that another block also enters. A derived case block
; ending in a probed branch without a call gives that branch its visits and
; active threads: the branch's probe counts neither (nor the block). A
; switch with no derived case block counts no arrivals.
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump --cfg %t.json | FileCheck --check-prefix=DB %s

target triple = "nvptx64-nvidia-cuda"

; Four cases: the probe maps values in one lane per value and groups the
; lanes by successor (%wsx). The record at word 2 (byte 16), four
; successors: visits, divergent,
; threads of successors 0 to 2, uniform visits (words 6-9: byte 64),
; arrivals (words 10-13: byte 96).
; CHECK-LABEL: define ptx_kernel void @all_cases(
; CHECK: call void asm sideeffect "// ws:block 0 ws:branch 2\0A{{.*}}match.any.sync.b32 %wsx, %wsi, %wsm;{{.*}}mad.wide.u32 %wsr, %wsi, 8, %wsr;\0A\09@%wsq red.global.add.u64 [%wsr+96], 1;\0A\09setp.eq.and.u32 %wsa, %wsx, %wsm, %wsq;\0A\09@%wsa red.global.add.u64 [%wsr+64], 1;{{.*}}", "r"(i32 %lane)
; CHECK-NEXT: switch i32 %lane
; CHECK: one:
; CHECK-NEXT: call void asm sideeffect "// ws:block 16 (derived)\0A\09{\0A\09.reg .b32 %ws_block_16;\0A\09mov.u32 %ws_block_16, 0;\0A\09}", ""()
; CHECK: two:
; CHECK-NEXT: call void asm sideeffect "// ws:block 18 (derived)
; CHECK: both:
; CHECK-NEXT: call void asm sideeffect "// ws:block 20\0A{{.*}}red.global.add.u64
; CHECK: other:
; CHECK-NEXT: call void asm sideeffect "// ws:block 22\0A{{.*}}red.global.add.u64
; CHECK: join:
; CHECK-NEXT: call void asm sideeffect "// ws:block 24\0A{{.*}}red.global.add.u64
define ptx_kernel void @all_cases(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 7
  switch i32 %lane, label %other [
    i32 0, label %one
    i32 1, label %two
    i32 2, label %both
    i32 3, label %both
  ]
one:
  store i32 1, ptr addrspace(1) %out
  br label %join
two:
  store i32 2, ptr addrspace(1) %out
  br label %join
both:
  store i32 3, ptr addrspace(1) %out
  br label %join
other:
  store i32 4, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

; %shared is also entered from %cond: %own and %cond are derived (the
; default, %join, is successor 0, then the cases' blocks in order: %own 1,
; %shared 2, %cond 3). %cond ends in a divergent branch (record at word 46,
; byte 368: visits, divergent 376, active threads 384, successor-0 threads
; 392, arrivals 400) whose probe writes neither visits nor active threads
; (those are %cond's derived counts), only arrivals, divergent visits and
; successor-0 threads.
; CHECK-LABEL: define ptx_kernel void @some_cases(
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}match.any.sync.b32 %wsb, %wsi, %wsm;{{.*}}@%wsq red.global.add.u64 [%wsr+{{[0-9]+}}], 1;\0A\09setp.eq.and.u32 %wsa{{.*}}", "r"(i32 %lane)
; CHECK-NEXT: switch i32 %lane
; CHECK: own:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}} (derived)
; CHECK: cond:
; CHECK-NEXT: call void asm sideeffect "// ws:block 44 (derived)
; CHECK: call void asm sideeffect "// ws:branch 46\0A{{.*}}@!%wsp bra ws_done;\0A\09@%wsa red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+400], 1;\0A\09@%wsd red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+376], 1;\0A\09popc.b32 %wsn, %wsb;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+392], %wsc;\0Aws_done:\0A\09}"
; CHECK-NEXT: br i1 %odd
; CHECK: shared:
; CHECK-NEXT: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}red.global.add.u64
define ptx_kernel void @some_cases(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 3
  switch i32 %lane, label %join [
    i32 0, label %own
    i32 1, label %shared
    i32 2, label %cond
  ]
own:
  store i32 1, ptr addrspace(1) %out
  br label %join
cond:
  %v = load i32, ptr addrspace(1) %out
  %odd = icmp ne i32 %v, %tid
  br i1 %odd, label %shared, label %join
shared:
  store i32 2, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

; No case block has the switch as its only way in: no arrivals counted.
; CHECK-LABEL: define ptx_kernel void @no_cases(
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}mad.wide.u32 %wsr, %wsi, 8, %wsr;\0A\09setp.eq.and.u32 %wsa, %wsb, %wsm, %wsq;{{.*}}", "r"(i32 %lane)
; CHECK-NOT: (derived)
; CHECK: ret void
define ptx_kernel void @no_cases(ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 3
  %few = icmp ult i32 %n, 5
  br i1 %few, label %sw, label %pre
sw:
  switch i32 %lane, label %join [
    i32 0, label %a
    i32 1, label %b
  ]
pre:
  store i32 0, ptr addrspace(1) %out
  br label %a
a:
  store i32 1, ptr addrspace(1) %out
  br label %b
b:
  store i32 2, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; DB-LABEL: function all_cases kind=kernel
; DB: block id=1 counter=16 {{.*}} derived=branch0.succ1
; DB-NEXT: block id=2 counter=18 {{.*}} derived=branch0.succ2
; DB-NOT: derived
; DB: branch id=0 block=0 kind=switch succ=4,1,2,3 uniform=false probed=true counter=2 {{.*}} counts-arrivals
; DB-LABEL: function some_cases kind=kernel
; DB: block id=1 {{.*}} derived=branch0.succ1
; DB-NEXT: block id=2 counter=44 {{.*}} derived=branch0.succ3
; DB-NOT: derived
; DB: branch id=0 block=0 kind=switch succ=4,1,3,2 {{.*}} counts-arrivals
; DB-NEXT: branch id=1 block=2 kind=br succ=3,4 {{.*}} counter=46 {{.*}} shares-block-counts
; DB-LABEL: function no_cases kind=kernel
; DB-NOT: derived
; DB: kind=switch
; DB-NOT: counts-arrivals
