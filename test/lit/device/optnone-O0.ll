; At -O0 clang marks every function optnone; the pass is required, so the
; O0 pipeline still instruments them (through the OptimizerLast callback).
; RUN: %opt-ws -passes='default<O0>' -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %opt-ws -passes='default<O2>' -warpscope-db-out=%t2.json -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: ws:block 0
; CHECK: ws:branch 2
; CHECK: ws:block
define ptx_kernel void @k(ptr addrspace(1) %out) noinline optnone {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, 16
  br i1 %c, label %t, label %e
t:
  store i32 1, ptr addrspace(1) %out
  br label %e
e:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
