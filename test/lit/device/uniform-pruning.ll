; Branches on blockIdx, blockDim, kernel arguments and warp votes are proven
; uniform and not probed; -warpscope-probe-all probes them anyway.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-probe-all -warpscope-db-out=%t.all.json -S %s | FileCheck --check-prefix=ALL %s
; RUN: %dbdump %t.all.json | FileCheck --check-prefix=DBALL %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @uniform(
; CHECK-NOT: ws:branch
; CHECK-LABEL: define ptx_kernel void @divergent_load(
; CHECK: ws:branch
; ALL-LABEL: define ptx_kernel void @uniform(
; ALL-COUNT-3: ws:branch
; ALL-LABEL: define ptx_kernel void @divergent_load(
define ptx_kernel void @uniform(ptr addrspace(1) %out, i32 %n) {
entry:
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %bid, 0
  br i1 %first, label %a, label %b
a:
  %dim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = call i32 @llvm.umin.i32(i32 %dim, i32 %n)
  %big = icmp ugt i32 %m, 64
  br i1 %big, label %b, label %c
b:
  %mask = call i32 @llvm.nvvm.activemask()
  %full = icmp eq i32 %mask, -1
  br i1 %full, label %c, label %d
c:
  store i32 1, ptr addrspace(1) %out
  br label %d
d:
  ret void
}

; Global loads through a thread-dependent address differ per lane.
define ptx_kernel void @divergent_load(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %v = load i32, ptr addrspace(1) %p
  %z = icmp eq i32 %v, 0
  br i1 %z, label %t, label %e
t:
  store i32 0, ptr addrspace(1) %out
  br label %e
e:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.umin.i32(i32, i32)

; DB-LABEL: function uniform kind=kernel
; DB: branch id=0 block=0 kind=br succ=1,2 uniform=true probed=false counter=-1
; DB: branch id=1 block=1 kind=br succ=2,3 uniform=true probed=false counter=-1
; DB: branch id=2 block=2 kind=br succ=3,4 uniform=true probed=false counter=-1
; DB-LABEL: function divergent_load kind=kernel
; DB: branch id=0 block=0 kind=br succ=1,2 uniform=false probed=true
; DBALL-LABEL: function uniform kind=kernel
; DBALL: branch id=0 block=0 kind=br succ=1,2 uniform=true probed=true counter={{[0-9]+}}
; DBALL: branch id=2 block=2 kind=br succ=3,4 uniform=true probed=true counter={{[0-9]+}}
