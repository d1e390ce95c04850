; The host pass describes the module to the runtime: a private
; ModuleDescriptor constant (ABI version, kernels, module id, counter array
; name and size, the embedded database, replicas and stride) and, in the
; CUDA registration constructor, a call of __warpscope_register_module with
; it and the fatbin handle right before __cudaRegisterFatBinaryEnd, guarded
; by the weak runtime symbol being there.
; RUN: rm -rf %t && mkdir -p %t
; RUN: %opt-ws -passes=warpscope-device -warpscope-module-id=00000000000000ab -warpscope-counter-replicas=1 -warpscope-db-out=%t/db.json -disable-output %S/Inputs/kern-device.ll
; RUN: %opt-ws -passes=warpscope-host -warpscope-module-id=00000000000000ab -warpscope-db-in=%t/db.json -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK-DAG: @__warpscope_counters_00000000000000ab = internal global [11 x i64] zeroinitializer
; CHECK-DAG: @__warpscope_module_id = private unnamed_addr constant [17 x i8] c"00000000000000ab\00"
; CHECK-DAG: @__warpscope_counters_name = private unnamed_addr constant [38 x i8] c"__warpscope_counters_00000000000000ab\00"
; CHECK-DAG: @__warpscope_database = private unnamed_addr constant [[DBTY:\[[0-9]+ x i8\]]] c"{{.*}}\22module_id\22:\2200000000000000ab\22
; CHECK-DAG: @__warpscope_kernels = private constant [1 x { ptr, ptr }] [{ ptr, ptr } { ptr @_Z19__device_stub__kernPi, ptr @0 }]
; CHECK-DAG: @__warpscope_module = private constant { i32, i32, ptr, ptr, i64, ptr, ptr, i64, ptr, i32, i32 } { i32 3, i32 1, ptr @__warpscope_module_id, ptr @__warpscope_counters_name, i64 11, ptr @__warpscope_counters_00000000000000ab, ptr @__warpscope_database, i64 {{[0-9]+}}, ptr @__warpscope_kernels, i32 1, i32 11 }

@0 = private unnamed_addr constant [10 x i8] c"_Z4kernPi\00"
@fatbin = private constant [6 x i8] c"FATBIN", section ".nv_fatbin"
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @fatbin, ptr null }, section ".nvFatBinSegment"
@__cuda_gpubin_handle = internal global ptr null
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]

define void @_Z19__device_stub__kernPi(ptr %p) {
  ret void
}

; CHECK-LABEL: define internal void @__cuda_module_ctor(
; CHECK: %h = call ptr @__cudaRegisterFatBinary(
; CHECK: call i32 @__cudaRegisterFunction(
; CHECK: %ws.rt = icmp ne ptr @__warpscope_register_module, null
; CHECK-NEXT: br i1 %ws.rt, label %[[THEN:[0-9]+]], label %[[END:[0-9]+]]
; CHECK: [[THEN]]:
; CHECK-NEXT: call void @__warpscope_register_module(ptr @__warpscope_module, ptr %h)
; CHECK-NEXT: br label %[[END]]
; CHECK: [[END]]:
; CHECK-NEXT: call void @__cudaRegisterFatBinaryEnd(ptr %h)
; CHECK: ret void
define internal void @__cuda_module_ctor() {
  %h = call ptr @__cudaRegisterFatBinary(ptr @__cuda_fatbin_wrapper)
  store ptr %h, ptr @__cuda_gpubin_handle
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @_Z19__device_stub__kernPi, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  call void @__cudaRegisterFatBinaryEnd(ptr %h)
  ret void
}

; CHECK: declare extern_weak void @__warpscope_register_module(ptr, ptr)

declare ptr @__cudaRegisterFatBinary(ptr)
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
declare void @__cudaRegisterFatBinaryEnd(ptr)
