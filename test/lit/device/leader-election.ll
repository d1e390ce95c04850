; Probes elect their leader with elect.sync where the target has it (sm_90+,
; PTX ISA 8.0+) and with laneid/bfind/setp elsewhere.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-sync-free-probes=false -warpscope-db-out=%t.json -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @hopper(
; CHECK: activemask.b32 %wsm;\0A\09elect.sync _|%wsp, %wsm;
; CHECK-NOT: bfind
; CHECK: ret void
define ptx_kernel void @hopper(ptr addrspace(1) %out) #0 {
  store i32 1, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @ampere(
; CHECK: activemask.b32 %wsm;\0A\09mov.u32 %wsl, %laneid;\0A\09bfind.u32 %wsn, %wsm;\0A\09setp.eq.u32 %wsp, %wsl, %wsn;
; CHECK-NOT: elect.sync
; CHECK: ret void
define ptx_kernel void @ampere(ptr addrspace(1) %out) #1 {
  store i32 1, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @old_ptx(
; CHECK-NOT: elect.sync
; CHECK: ret void
define ptx_kernel void @old_ptx(ptr addrspace(1) %out) #2 {
  store i32 1, ptr addrspace(1) %out
  ret void
}

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #1 = { "target-cpu"="sm_80" "target-features"="+ptx88,+sm_80" }
attributes #2 = { "target-cpu"="sm_90" "target-features"="+ptx78,+sm_90" }
