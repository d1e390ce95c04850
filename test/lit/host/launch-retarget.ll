; The host pass routes kernel launches and device resets through the
; runtime when it is loaded: each call of cudaLaunchKernel (and
; cudaLaunchKernel_ptsz, cudaDeviceReset) calls a select between the weak
; __warpscope_ wrapper and the original, with the same arguments.
; RUN: %opt-ws -passes=warpscope-host -warpscope-module-id=00000000000000ac -warpscope-db-dir=%t.nodb -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@fatbin = private constant [6 x i8] c"FATBIN", section ".nv_fatbin"
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @fatbin, ptr null }, section ".nvFatBinSegment"

; CHECK-LABEL: define i32 @launch(
; CHECK: %ws.rt = icmp ne ptr @__warpscope_cudaLaunchKernel, null
; CHECK-NEXT: %ws.callee = select i1 %ws.rt, ptr @__warpscope_cudaLaunchKernel, ptr @cudaLaunchKernel
; CHECK-NEXT: %r = call i32 %ws.callee(ptr @stub, i64 1, i32 1, i64 32, i32 1, ptr %args, i64 0, ptr null)
; CHECK: %ws.rt1 = icmp ne ptr @__warpscope_cudaDeviceReset, null
; CHECK-NEXT: %ws.callee2 = select i1 %ws.rt1, ptr @__warpscope_cudaDeviceReset, ptr @cudaDeviceReset
; CHECK-NEXT: %e = call i32 %ws.callee2()
; CHECK: ret i32
define i32 @launch(ptr %args) {
  %r = call i32 @cudaLaunchKernel(ptr @stub, i64 1, i32 1, i64 32, i32 1, ptr %args, i64 0, ptr null)
  %e = call i32 @cudaDeviceReset()
  ret i32 %r
}

define void @stub(ptr %p) {
  ret void
}

define internal void @__cuda_module_ctor() {
  %h = call ptr @__cudaRegisterFatBinary(ptr @__cuda_fatbin_wrapper)
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @stub, ptr null, ptr null, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  call void @__cudaRegisterFatBinaryEnd(ptr %h)
  ret void
}

; CHECK-DAG: declare extern_weak i32 @__warpscope_cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
; CHECK-DAG: declare extern_weak i32 @__warpscope_cudaDeviceReset()

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cudaDeviceReset()
declare ptr @__cudaRegisterFatBinary(ptr)
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
declare void @__cudaRegisterFatBinaryEnd(ptr)
