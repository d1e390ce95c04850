; The device side of module-descriptor.ll: one kernel, one divergent branch
; (3 blocks and 1 branch record: 11 counter words).
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z4kernPi(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %then, label %done
then:
  store i32 1, ptr addrspace(1) %p
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
