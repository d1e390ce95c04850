; A thread-dependent switch is probed over its distinct successors (default
; first): on an i32 with few cases every lane maps its value to its successor
; index by a compare-and-select chain inside the probe (so histograms do not
; count it as program code), and lanes group by successor (match.any):
; divergent iff the leader's group is not the whole warp; the lowest lane of
; each group adds 1 to its successor's uniform-visits word when its group is
; the whole warp, and (successors but the last) its group's size to its
; successor's threads word, at addresses its successor index selects (the
; record: visits, divergent, threads of successors 0 and 1, then uniform
; visits at +40 of it, then arrivals, not counted here: no case block is
; derived without cheaper counting; switch-derived.ll). A dense switch maps
; values by one range check (@dense).
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-cheaper-counting=false -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s
; Every lane computes the leaders' temporaries (the successor's address, its
; group's popc and its 64-bit copy) and only the atomics are predicated
; (-warpscope-unpredicated-probe-temps, default on): a predicated definition
; keeps the old value live and ptxas holds the probe's temporaries longer
; (interp 42 -> 33 registers). Off, every one of them is the leader's.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-cheaper-counting=false -warpscope-unpredicated-probe-temps=0 -warpscope-db-out=%t.p.json -S %s | FileCheck --check-prefix=PRED %s
; PRED-LABEL: define ptx_kernel void @sw(
; PRED: call void asm sideeffect "// ws:branch 2\0A{{.*}}\0A\09@%wsq mov.u64 %wsr, __warpscope_counters_{{[0-9a-f]+}};\0A\09@%wsq mad.wide.u32 %wsr, %wsi, 8, %wsr;{{.*}}\0A\09@%wsq popc.b32 %wsn, %wsb;\0A\09@%wsq cvt.u64.u32 %wsc, %wsn;\0A\09@%wsq red.global.add.u64 [%wsr+40], %wsc;\0A\09@%wsp popc.b32 %wsn, %wsm;\0A\09@%wsp cvt.u64.u32 %wsc, %wsn;\0A\09@%wsp red.global.add.u64

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @sw(
; CHECK-NOT: ws.succ
; CHECK: call void asm sideeffect "// ws:branch 2\0A{{.*}}[__warpscope_counters_[[ID:[0-9a-f]+]]+16], 1;\0A\09mov.u32 %wsi, 0;\0A\09setp.eq.u32 %wst, $0, 0;\0A\09selp.u32 %wsi, 1, %wsi, %wst;\0A\09setp.eq.u32 %wst, $0, 1;\0A\09selp.u32 %wsi, 2, %wsi, %wst;\0A\09setp.eq.u32 %wst, $0, 2;\0A\09selp.u32 %wsi, 1, %wsi, %wst;\0A\09match.any.sync.b32 %wsb, %wsi, %wsm;\0A\09setp.ne.and.u32 %wsd, %wsb, %wsm, %wsp;\0A\09@%wsd red.global.add.u64 [__warpscope_counters_[[ID]]+24], 1;\0A\09mov.u32 %wsl, %lanemask_lt;\0A\09and.b32 %wsl, %wsl, %wsb;\0A\09setp.eq.u32 %wsq, %wsl, 0;\0A\09mov.u64 %wsr, __warpscope_counters_[[ID]];\0A\09mad.wide.u32 %wsr, %wsi, 8, %wsr;\0A\09setp.eq.and.u32 %wsa, %wsb, %wsm, %wsq;\0A\09@%wsa red.global.add.u64 [%wsr+56], 1;\0A\09setp.lt.and.u32 %wsq, %wsi, 2, %wsq;\0A\09popc.b32 %wsn, %wsb;\0A\09cvt.u64.u32 %wsc, %wsn;\0A\09@%wsq red.global.add.u64 [%wsr+40], %wsc;\0A\09{{.*}}[__warpscope_counters_[[ID]]+32], %wsc;\0A\09}", "r"(i32 %lane)
; CHECK-NEXT: switch i32 %lane
define ptx_kernel void @sw(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 3
  switch i32 %lane, label %dflt [
    i32 0, label %one
    i32 1, label %two
    i32 2, label %one
  ]
one:
  store i32 1, ptr addrspace(1) %out
  br label %dflt
two:
  store i32 2, ptr addrspace(1) %out
  br label %dflt
dflt:
  ret void
}

; On other widths the chain stays in IR, and the probe takes the index.
; CHECK-LABEL: define ptx_kernel void @sw16(
; CHECK: %[[C1:[0-9]+]] = icmp eq i16 %v, 0
; CHECK-NEXT: %[[S1:ws.succ[0-9]*]] = select i1 %[[C1]], i32 1, i32 0
; CHECK-NEXT: %[[C2:[0-9]+]] = icmp eq i16 %v, 1
; CHECK-NEXT: %[[S2:ws.succ[0-9]*]] = select i1 %[[C2]], i32 2, i32 %[[S1]]
; CHECK-NEXT: call void asm sideeffect "// ws:branch {{[0-9]+}}\0A{{.*}}match.any.sync.b32 %wsb, $0, %wsm;{{.*}}", "r"(i32 %[[S2]])
; CHECK-NEXT: switch i16 %v
define ptx_kernel void @sw16(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = trunc i32 %tid to i16
  switch i16 %v, label %dflt [
    i16 0, label %one
    i16 1, label %two
  ]
one:
  store i32 1, ptr addrspace(1) %out
  br label %dflt
two:
  store i32 2, ptr addrspace(1) %out
  br label %dflt
dflt:
  ret void
}

; A switch whose cases all go to one block is no branch at all.
; CHECK-LABEL: define ptx_kernel void @degenerate(
; CHECK-NOT: ws:branch
; CHECK: ret void
define ptx_kernel void @degenerate(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %tid, label %done [
    i32 0, label %done
  ]
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; DB-LABEL: function sw kind=kernel
; DB: branch id=0 block=0 kind=switch succ=3,1,2 uniform=false probed=true counter=2
; DB-LABEL: function degenerate kind=kernel
; DB-NOT: branch

; With 4 or more cases on an i32 the probe takes the switch value and its
; case table (no select chain): the highest lane of each value's match.any
; group maps it to a successor index (that lane's instructions alone), shfl
; hands it to the group, and the lanes group by successor (match.any: values
; 3 and 9 share one) to count as with the chain, the highest lane of each
; group leading it (cases sharing the default block are left out of the
; table).
; CHECK-LABEL: define ptx_kernel void @dispatch(
; CHECK-NOT: ws.succ
; CHECK: call void asm sideeffect "// ws:branch {{[0-9]+}}\0A{{.*}}.reg .b32 %wsi, %wsx;\0A\09.reg .pred %wst;\0A\09activemask.b32 %wsm;{{.*}}match.any.sync.b32 %wsb, $0, %wsm;\0A\09bfind.u32 %wsl, %wsb;\0A\09mov.u32 %wsn, %laneid;\0A\09setp.eq.u32 %wsq, %wsl, %wsn;\0A\09@%wsq mov.u32 %wsi, 0;\0A\09@%wsq setp.eq.u32 %wst, $0, 3;\0A\09@%wsq selp.u32 %wsi, 1, %wsi, %wst;\0A\09@%wsq setp.eq.u32 %wst, $0, 5;\0A\09@%wsq selp.u32 %wsi, 2, %wsi, %wst;\0A\09@%wsq setp.eq.u32 %wst, $0, 9;\0A\09@%wsq selp.u32 %wsi, 1, %wsi, %wst;\0A\09shfl.sync.idx.b32 %wsi, %wsi, %wsl, 31, %wsm;\0A\09match.any.sync.b32 %wsx, %wsi, %wsm;\0A\09setp.ne.and.u32 %wsd, %wsx, %wsm, %wsp;\0A\09@%wsd red.global.add.u64 [__warpscope_counters_{{[0-9a-f]+}}+{{[0-9]+}}], 1;\0A\09bfind.u32 %wsl, %wsx;\0A\09setp.eq.u32 %wsq, %wsl, %wsn;\0A\09mov.u64 %wsr, __warpscope_counters_{{[0-9a-f]+}};\0A\09mad.wide.u32 %wsr, %wsi, 8, %wsr;\0A\09setp.eq.and.u32 %wsa, %wsx, %wsm, %wsq;\0A\09@%wsa red.global.add.u64 [%wsr+{{[0-9]+}}], 1;\0A\09setp.lt.and.u32 %wsq, %wsi, 2, %wsq;\0A\09popc.b32 %wsn, %wsx;{{.*}}", "r"(i32 %v)
; CHECK-NEXT: switch i32 %v
define ptx_kernel void @dispatch(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = and i32 %tid, 15
  switch i32 %v, label %dflt [
    i32 3, label %one
    i32 5, label %two
    i32 7, label %dflt
    i32 9, label %one
  ]
one:
  store i32 1, ptr addrspace(1) %out
  br label %dflt
two:
  store i32 2, ptr addrspace(1) %out
  br label %dflt
dflt:
  ret void
}

; A dense switch (consecutive values to consecutive successors, none the
; default, as an interpreter's dispatch): whatever the number of cases, every
; lane maps its value with one range check (value - 2 below 5: successor
; value - 2 + 1, else the default, 0), then counts as with the chain.
; CHECK-LABEL: define ptx_kernel void @dense(
; CHECK: call void asm sideeffect "// ws:branch {{[0-9]+}}\0A{{.*}}\0A\09sub.u32 %wsi, $0, 2;\0A\09setp.lt.u32 %wst, %wsi, 5;\0A\09add.u32 %wsi, %wsi, 1;\0A\09selp.u32 %wsi, %wsi, 0, %wst;\0A\09match.any.sync.b32 %wsb, %wsi, %wsm;{{.*}}", "r"(i32 %v{{.*}})
; CHECK-NOT: bfind
; CHECK-NEXT: switch i32 %v
define ptx_kernel void @dense(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = and i32 %tid, 7
  switch i32 %v, label %dflt [
    i32 2, label %a
    i32 3, label %b
    i32 4, label %c
    i32 5, label %d
    i32 6, label %e
  ]
a:
  store i32 1, ptr addrspace(1) %out
  br label %dflt
b:
  store i32 2, ptr addrspace(1) %out
  br label %dflt
c:
  store i32 3, ptr addrspace(1) %out
  br label %dflt
d:
  store i32 4, ptr addrspace(1) %out
  br label %dflt
e:
  store i32 5, ptr addrspace(1) %out
  br label %dflt
dflt:
  ret void
}

; DB-LABEL: function dispatch kind=kernel
; DB: branch id=0 block=0 kind=switch succ=3,1,2 uniform=false probed=true
