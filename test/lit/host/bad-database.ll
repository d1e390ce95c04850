; The host pass reads the program database through the one reader
; (ProgramDatabase::fromJson): a database of another module, a corrupt one
; and one with a bad counter layout each stop the build with one line naming
; the file and what to do.
; RUN: rm -rf %t && mkdir -p %t
; RUN: %opt-ws -passes=warpscope-device -warpscope-module-id=00000000000000ab -warpscope-counter-replicas=1 -warpscope-db-out=%t/db.json -disable-output %S/Inputs/kern-device.ll
; A good database is accepted (the control for the cases below).
; RUN: %opt-ws -passes=warpscope-host -warpscope-module-id=00000000000000ab -warpscope-db-in=%t/db.json -disable-output %s
; RUN: not %opt-ws -passes=warpscope-host -warpscope-module-id=00000000000000cd -warpscope-db-in=%t/db.json -disable-output %s 2>&1 | FileCheck --check-prefix=OTHER %s
; OTHER: error: warpscope: program database '{{.*}}db.json' belongs to another module; rebuild this file with the plugin
; RUN: head -c 40 %t/db.json > %t/cut.json
; RUN: not %opt-ws -passes=warpscope-host -warpscope-module-id=00000000000000ab -warpscope-db-in=%t/cut.json -disable-output %s 2>&1 | FileCheck --check-prefix=CUT %s
; CUT: error: warpscope: program database '{{.*}}cut.json' is unreadable ({{.+}}); rebuild this file with the plugin
; RUN: sed -e 's/"counter_replicas": *[0-9]*/"counter_replicas":0/' %t/db.json > %t/layout.json
; RUN: not %opt-ws -passes=warpscope-host -warpscope-module-id=00000000000000ab -warpscope-db-in=%t/layout.json -disable-output %s 2>&1 | FileCheck --check-prefix=LAYOUT %s
; LAYOUT: error: warpscope: program database '{{.*}}layout.json' is unreadable (program database has a bad counter layout ({{.*}})); rebuild this file with the plugin
target triple = "x86_64-unknown-linux-gnu"


@0 = private unnamed_addr constant [10 x i8] c"_Z4kernPi\00"
@fatbin = private constant [6 x i8] c"FATBIN", section ".nv_fatbin"
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @fatbin, ptr null }, section ".nvFatBinSegment"
@__cuda_gpubin_handle = internal global ptr null
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]

define void @_Z19__device_stub__kernPi(ptr %p) {
  ret void
}

define internal void @__cuda_module_ctor() {
  %h = call ptr @__cudaRegisterFatBinary(ptr @__cuda_fatbin_wrapper)
  store ptr %h, ptr @__cuda_gpubin_handle
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @_Z19__device_stub__kernPi, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  call void @__cudaRegisterFatBinaryEnd(ptr %h)
  ret void
}


declare ptr @__cudaRegisterFatBinary(ptr)
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
declare void @__cudaRegisterFatBinaryEnd(ptr)
