; What the device pass decided, per function, as analysis remarks: blocks
; and branches probed or pruned as proven uniform ("Instrumented"), and the
; probes placed, blocks counted by their branch's probe, derived from a
; branch record or taken from an equivalent block, and loops whose probes
; count in registers ("Probes"). The pass keeps the same numbers in
; STATISTICs (a DEBUG_TYPE per pass file, e.g. "warpscope-probe-placement",
; the remarks' pass name), but opt -stats prints nothing on an LLVM built
; without assertions or LLVM_FORCE_ENABLE_STATS, so the remarks are what
; this test can see.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -pass-remarks-analysis=warpscope -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck --check-prefix=YAML %s < %t.yaml
; RUN: FileCheck --check-prefix=PASS %s < %t.yaml
; PASS: Pass: warpscope-counting-plan
; PASS: Pass: warpscope-probe-placement

target triple = "nvptx64-nvidia-cuda"

; Planning remarks for every function first, then placement remarks.
; CHECK: remark: {{.*}}instrumented 5 blocks; probed 1 of 3 branches (2 proven uniform)
; CHECK-NEXT: remark: {{.*}}instrumented 4 blocks; probed 0 of 1 branches (1 proven uniform)
; CHECK-NEXT: remark: {{.*}}placed 3 block, 1 branch and 1 loop-entry probes; blocks counted by their branch's probe: 1, derived from a branch record: 1, from an equivalent block: 0; loops counting in registers: 1
; CHECK-NEXT: remark: {{.*}}placed 3 block, 0 branch and 0 loop-entry probes; blocks counted by their branch's probe: 0, derived from a branch record: 0, from an equivalent block: 1; loops counting in registers: 0

; The numbers are named arguments in the remarks file.
; YAML-LABEL: Name: Probes
; YAML-NEXT: Function: loop
; YAML: BlockProbes: '3'
; YAML: BranchProbes: '1'
; YAML: LoopEntryProbes: '1'
; YAML: MergedBlocks: '1'
; YAML: DerivedBlocks: '1'
; YAML: EquivalentBlocks: '0'
; YAML: PromotedLoops: '1'
; YAML-LABEL: Name: Probes
; YAML-NEXT: Function: diamond
; YAML: EquivalentBlocks: '1'
; YAML: PromotedLoops: '0'

; %head's divergent branch is probed, its block counted by that probe, %then
; derived from it, the loop promoted; %entry's uniform guard counts loop
; entries, %latch's uniform branch is pruned.

define ptx_kernel void @loop(ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %skip = icmp eq i32 %n, 0
  br i1 %skip, label %done, label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %bit = and i32 %i, %tid
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %then, label %latch
then:
  store i32 %i, ptr addrspace(1) %out
  br label %latch
latch:
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, %n
  br i1 %more, label %head, label %done
done:
  ret void
}

; A uniform if-else: %join runs exactly when %entry runs.
define ptx_kernel void @diamond(ptr addrspace(1) %out, i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr addrspace(1) %out
  br label %join
b:
  store i32 2, ptr addrspace(1) %out
  br label %join
join:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
