; Every pass of the plugin runs by name in opt -passes=, and a printed
; pipeline names it the same way, so it parses back.
; RUN: %opt-ws -passes=warpscope-subprogram-names,warpscope-pgo-use,warpscope-device,warpscope-host -print-pipeline-passes -disable-output %s | FileCheck %s
; RUN: %opt-ws -passes="$(%opt-ws -passes=warpscope-subprogram-names,warpscope-pgo-use,warpscope-device,warpscope-host -print-pipeline-passes -disable-output %s)" -warpscope-db-out=%t.json -S %s | FileCheck --check-prefix=PARSED %s

target triple = "nvptx64-nvidia-cuda"

; CHECK: warpscope-subprogram-names,warpscope-pgo-use,warpscope-device,warpscope-host,verify

; PARSED-LABEL: define ptx_kernel void @k(
; PARSED: ws:block 0
define ptx_kernel void @k() {
  ret void
}
