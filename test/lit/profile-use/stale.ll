; A record whose function hash is not the function's CFG checksum (its
; control flow changed since the profiled build) attaches nothing: one
; warning names the function.
; RUN: rm -rf %t && mkdir -p %t
; RUN: printf ':ir\n00000000000000ae;_Z4kernPi\n1\n7\n10\n4\n10\n40\n280\n4\n10\n' > %t/prof.proftext
; RUN: %llvm-profdata merge %t/prof.proftext -o %t/prof.profdata
; RUN: %opt-ws -passes=warpscope-pgo-use -warpscope-profile-use=%t/prof.profdata -warpscope-module-id=00000000000000ae -S %s 2>%t/err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t/err

target triple = "nvptx64-nvidia-cuda"

; WARN: warning: warpscope: profile for kern(int*) is stale (its control flow changed since the profiled build); no weights attached
; CHECK-LABEL: define ptx_kernel void @_Z4kernPi(ptr addrspace(1) %p) {
; CHECK-NOT: !prof
; CHECK-NOT: !warpscope.divergence
; CHECK: ret void
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
