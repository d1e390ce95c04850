; -warpscope-kernel-filter=REGEX instruments only the kernels whose mangled
; or demangled name matches, and the device functions they may call; the
; other kernels, and functions only they call, compile as without the
; plugin. A function both may call is instrumented and marked in the
; database, which also lists the kernels left out.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-kernel-filter='^keep' -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s
; The same as a pipeline parameter, printed back as given.
; RUN: %opt-ws -passes='warpscope-device<counter-replicas=1;kernel-filter=^keep>' -warpscope-db-out=%t.param.json -S %s | FileCheck %s
; RUN: %dbdump %t.param.json | FileCheck --check-prefix=DB %s
; RUN: %opt-ws -passes='warpscope-device<kernel-filter=^keep>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PRINT %s
; PRINT: warpscope-device<kernel-filter=^keep>
; Without the filter every function is instrumented.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.all.json -S %s | FileCheck --check-prefix=ALL %s
; RUN: %dbdump %t.all.json | FileCheck --check-prefix=DB-ALL %s
; A filter no kernel matches leaves the module as it was, with a database
; that has no counters and says what was left out.
; RUN: %opt-ws -passes=warpscope-device -warpscope-kernel-filter=nothing -warpscope-db-out=%t.none.json -S %s | FileCheck --check-prefix=NONE %s
; RUN: %dbdump %t.none.json | FileCheck --check-prefix=DB-NONE %s
; RUN: not %opt-ws -passes=warpscope-device -warpscope-kernel-filter='(' -warpscope-db-out=%t.bad.json -disable-output %s 2>&1 | FileCheck --check-prefix=BAD %s

target triple = "nvptx64-nvidia-cuda"

; CHECK: @[[CTR:__warpscope_counters_[0-9a-f]+]] =

; CHECK-LABEL: define i32 @_Z9only_kepti(
; CHECK: ws:block
define i32 @_Z9only_kepti(i32 %x) noinline {
  %y = add i32 %x, 1
  ret i32 %y
}

; CHECK-LABEL: define i32 @_Z12only_droppedi(
; CHECK-NOT: ws:
; CHECK: ret i32
define i32 @_Z12only_droppedi(i32 %x) noinline {
  %y = add i32 %x, 2
  ret i32 %y
}

; CHECK-LABEL: define i32 @_Z6sharedi(
; CHECK: ws:block
define i32 @_Z6sharedi(i32 %x) noinline {
  %y = add i32 %x, 3
  ret i32 %y
}

; Its address is taken: any kernel that calls through a pointer may call it
; (both do).
; CHECK-LABEL: define i32 @_Z7escapedi(
; CHECK: ws:block
define i32 @_Z7escapedi(i32 %x) noinline {
  ret i32 %x
}

; The demangled name keep_me(int*) matches ^keep; the mangled one does not.
; CHECK-LABEL: define ptx_kernel void @_Z7keep_mePi(
; CHECK: ws:block
define ptx_kernel void @_Z7keep_mePi(ptr addrspace(1) %out) {
  %n = load i32, ptr addrspace(1) %out
  %a = call i32 @_Z9only_kepti(i32 %n)
  %b = call i32 @_Z6sharedi(i32 %a)
  %f = select i1 true, ptr @_Z7escapedi, ptr null
  %c = call i32 %f(i32 %b)
  store i32 %c, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @_Z7drop_mePi(
; CHECK-NOT: ws:
; CHECK: ret void
define ptx_kernel void @_Z7drop_mePi(ptr addrspace(1) %out) {
  %n = load i32, ptr addrspace(1) %out
  %a = call i32 @_Z12only_droppedi(i32 %n)
  %b = call i32 @_Z6sharedi(i32 %a)
  %f = select i1 true, ptr @_Z7escapedi, ptr @_Z7escapedi
  %c = call i32 %f(i32 %b)
  store i32 %c, ptr addrspace(1) %out
  ret void
}

; DB: kernel-filter=^keep not-instrumented=_Z7drop_mePi=drop_me(int*)
; DB-NOT: function _Z12only_droppedi
; DB-NOT: function _Z7drop_mePi
; DB: function _Z9only_kepti kind=device demangled=only_kept(int) line=0{{$}}
; DB: function _Z6sharedi kind=device demangled=shared(int) line=0 shared-with-left-out
; DB: function _Z7escapedi kind=device demangled=escaped(int) line=0 shared-with-left-out
; DB: function _Z7keep_mePi kind=kernel demangled=keep_me(int*) line=0{{$}}

; ALL-COUNT-6: ws:block
; DB-ALL-NOT: kernel-filter
; DB-ALL-NOT: shared-with-left-out

; NONE-NOT: __warpscope_counters
; NONE-NOT: ws:
; DB-NONE: module id={{[0-9a-f]+}} counters=0
; DB-NONE: kernel-filter=nothing not-instrumented=_Z7keep_mePi=keep_me(int*),_Z7drop_mePi=drop_me(int*)
; DB-NONE-NOT: function

; BAD: error: warpscope: -warpscope-kernel-filter='(' is not a valid regular expression
