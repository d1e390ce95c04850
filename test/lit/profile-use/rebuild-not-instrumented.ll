; State between passes is in the IR: the profile-use pass marks a device
; module it is given a profile for with the module flag
; "warpscope.profile-use" (even when the profile has no counts for it), and
; the device pass, run on its own in a later opt with no profile option,
; reads the flag and leaves the module uninstrumented. It also removes the
; database an earlier instrumented build left for the host compile, so the
; host side does not register counters this code does not have.
; RUN: rm -rf %t && mkdir -p %t/db
; RUN: printf ':ir\nffffffffffffffff;other\n1\n1\n0\n' > %t/prof.proftext
; RUN: %llvm-profdata merge %t/prof.proftext -o %t/prof.profdata
; RUN: %opt-ws -passes=warpscope-pgo-use -warpscope-profile-use=%t/prof.profdata -warpscope-module-id=00000000000000af -S %s -o %t/rebuild.ll 2>%t/err
; RUN: FileCheck --check-prefix=FLAG %s < %t/rebuild.ll
; RUN: FileCheck --check-prefix=WARN %s < %t/err
; RUN: echo '{}' > %t/db/00000000000000af.json
; RUN: %opt-ws -passes=warpscope-device -warpscope-module-id=00000000000000af -warpscope-db-dir=%t/db -S %t/rebuild.ll | FileCheck --check-prefix=REBUILD %s
; RUN: not test -e %t/db/00000000000000af.json
; Without the flag the same module is instrumented and gets a database.
; RUN: %opt-ws -passes=warpscope-device -warpscope-module-id=00000000000000af -warpscope-db-dir=%t/db -S %s | FileCheck --check-prefix=INSTR %s
; RUN: test -e %t/db/00000000000000af.json

target triple = "nvptx64-nvidia-cuda"

; FLAG: !llvm.module.flags = !{![[F:[0-9]+]]}
; FLAG: ![[F]] = !{i32 7, !"warpscope.profile-use", i32 1}
; WARN: warning: warpscope: profile '{{.*}}prof.profdata' has no counts for module 00000000000000af
; REBUILD-NOT: __warpscope_counters
; REBUILD-LABEL: define ptx_kernel void @_Z4kernPi(
; REBUILD-NOT: ws:
; REBUILD: ret void
; INSTR: @__warpscope_counters_00000000000000af =
; INSTR-LABEL: define ptx_kernel void @_Z4kernPi(
; INSTR: ws:block 0 ws:branch
; INSTR: ret void
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
