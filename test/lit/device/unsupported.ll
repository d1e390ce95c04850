; Indirect branches are not probed: a remark says so, nothing crashes, and
; the block still gets its counter.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -pass-remarks-missed=warpscope -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=REMARK %s < %t.err

target triple = "nvptx64-nvidia-cuda"

; REMARK: remark: {{.*}}not probed: indirectbr (indirect or inline-asm control flow) is not supported
; CHECK-LABEL: define ptx_kernel void @ind(
; CHECK: entry:
; CHECK-NEXT: ws:block 0
; CHECK-NOT: ws:branch
; CHECK: indirectbr
define ptx_kernel void @ind(ptr addrspace(1) %out, i32 %sel) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  %dst = select i1 %c, ptr blockaddress(@ind, %a), ptr blockaddress(@ind, %b)
  indirectbr ptr %dst, [label %a, label %b]
a:
  store i32 1, ptr addrspace(1) %out
  ret void
b:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
