; Non-inlined device functions get block counters; their arguments may
; differ per lane, so a branch on an argument is probed. A call's result is
; divergent too. All records share the module's one counter array. A block
; that calls keeps its own block probe (the call may change the mask); one
; without calls is counted by its branch probe.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s

target triple = "nvptx64-nvidia-cuda"

; CHECK: @[[CTR:__warpscope_counters_[0-9a-f]+]] = {{.*}}[22 x i64]
; CHECK-LABEL: define i32 @_Z6helperi(
; CHECK: "// ws:block 0 ws:branch 2
define i32 @_Z6helperi(i32 %x) noinline {
entry:
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %n, label %p
n:
  ret i32 0
p:
  ret i32 %x
}

; CHECK-LABEL: define ptx_kernel void @_Z6callerPi(
; CHECK: "// ws:block 11\0A
; CHECK: call i32 @_Z6helperi(i32 %n)
; CHECK: "// ws:branch 13\0A
define ptx_kernel void @_Z6callerPi(ptr addrspace(1) %out) {
entry:
  %n = load i32, ptr addrspace(1) %out
  %r = call i32 @_Z6helperi(i32 %n)
  %z = icmp eq i32 %r, 0
  br i1 %z, label %a, label %b
a:
  store i32 1, ptr addrspace(1) %out
  br label %b
b:
  ret void
}

; DB: counters=22
; DB: function _Z6helperi kind=device demangled=helper(int)
; DB: branch id=0 block=0 kind=br succ=1,2 uniform=false probed=true counter=2
; DB: function _Z6callerPi kind=kernel demangled=caller(int*)
; DB: branch id=0 block=0 kind=br succ=1,2 uniform=false probed=true counter=13
