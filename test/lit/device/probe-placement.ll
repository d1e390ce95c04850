; A branch on threadIdx gets a branch probe right before its terminator: a
; ballot of "goes to successor 0" with the successor index from a select.
; RUN: %opt-ws -passes=warpscope-device -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @tid_branch(
; CHECK: entry:
; CHECK-NEXT: call void asm sideeffect "// ws:block 0
; CHECK: %odd = icmp ne i32
; CHECK-NEXT: %ws.succ = select i1 %odd, i32 0, i32 1
; CHECK-NEXT: call void asm sideeffect "// ws:branch 2\0A{{.*}}setp.eq.u32 %wsq, $1, 0;{{.*}}vote.sync.ballot.b32 %wsb, %wsq, %wsm;{{.*}}@%wsd red.global.add.u64 [$0+8], 1;{{.*}}popc.b32 %wsn, %wsb;{{.*}}[$0+24]{{.*}}popc.b32 %wsn, %wsm;{{.*}}[$0+16]{{.*}}", "l,r"({{.*}} i64 2) to i64), i32 %ws.succ)
; CHECK-NEXT: br i1 %odd, label %then, label %join
; CHECK-NOT: match.any
define ptx_kernel void @tid_branch(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bit = and i32 %tid, 1
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %then, label %join
then:
  store i32 1, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Records are laid out in block order, each block followed by its branch;
; a branch record is three words plus one per successor but the last.
; DB: counters=10
; DB: block id=0 counter=0
; DB: block id=1 counter=6
; DB: block id=2 counter=8
; DB: branch id=0 block=0 kind=br succ=1,2 uniform=false probed=true counter=2
