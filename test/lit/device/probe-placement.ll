; A branch on threadIdx gets a branch probe right before its terminator: a
; ballot of "goes to successor 0", the branch condition passed as a PTX
; predicate -- negated when successor 0 is the next block (the code
; generator branches on the negated condition then; the vote negates it
; back). Counters are addressed by the array's symbol.
; (Probes on their own; merging and derivation: cheaper-counting.ll.)
; RUN: %opt-ws -passes=warpscope-device -warpscope-sync-free-probes=false -warpscope-counter-replicas=1 -warpscope-cheaper-counting=false -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %dbdump %t.json | FileCheck --check-prefix=DB %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @tid_branch(
; CHECK: entry:
; CHECK-NEXT: call void asm sideeffect "// ws:block 0
; CHECK: %odd = icmp ne i32
; CHECK-NEXT: %[[NOT:[0-9]+]] = xor i1 %odd, true
; Every lane votes; then one branch skips the leader's region (its atomics,
; those of divergent visits and arrivals predicated on the vote) for the
; other lanes.
; CHECK-NEXT: call void asm sideeffect "// ws:branch 2\0A\09{\0A\09.reg .b32 %ws_branch_2;{{.*}}vote.sync.ballot.b32 %wsb, !$0, %wsm;\0A\09setp.ne.and.u32 %wsa, %wsb, 0, %wsp;\0A\09setp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\0A\09@!%wsp bra ws_done;\0A\09red.global.add.u64 [__warpscope_counters_[[ID:[0-9a-f]+]]+16], 1;{{.*}}popc.b32 %wsn, %wsm;{{.*}}[__warpscope_counters_[[ID]]+32]{{.*}}@%wsd red.global.add.u64 [__warpscope_counters_[[ID]]+24], 1;{{.*}}popc.b32 %wsn, %wsb;{{.*}}[__warpscope_counters_[[ID]]+40]{{.*}}ws_done:\0A\09}", "b"(i1 %[[NOT]])
; CHECK-NOT: +48]
; CHECK: br i1 %odd, label %then, label %join
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
; a two-way branch record is five words: visits, divergent, active threads,
; successor-0 threads, successor-0 arrivals.
; DB: counters=11
; DB: block id=0 counter=0
; DB: block id=1 counter=7
; DB: block id=2 counter=9
; DB: branch id=0 block=0 kind=br succ=1,2 uniform=false probed=true counter=2
