; Loop promotion's probe budget (-warpscope-promote-max-probes, default 6):
; a loop is promoted only where at most N of its probes would count in its
; registers (its two-way branches, and its blocks with their own probe under
; lane-block-probes); with more it counts in memory, because ptxas keeps
; every promoted register live through the loop (interp 21 -> 56 registers,
; md_build_list 32 -> 56). The loop below has two such probes: the header's
; branch and the join's block (the latch's branch is the header's loop
; test, derived). At N = 2 and by default (6) it is promoted, at N = 1 not,
; and N = 0 is no limit.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-promote-max-probes=2 -warpscope-db-out=%t.2.json -S %s | FileCheck --check-prefix=ON %s
; RUN: FileCheck --check-prefix=DBON %s < %t.2.json
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.d.json -S %s | FileCheck --check-prefix=ON %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-promote-max-probes=0 -warpscope-db-out=%t.0.json -S %s | FileCheck --check-prefix=ON %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-promote-max-probes=1 -warpscope-db-out=%t.1.json -S %s | FileCheck --check-prefix=OFF %s
; RUN: FileCheck --check-prefix=DBOFF %s < %t.1.json

target triple = "nvptx64-nvidia-cuda"

; ON-LABEL: define ptx_kernel void @two_probes(
; ON: entry:
; ON: asm sideeffect "// ws:init
; ON: head:
; ON: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted)
; ON: join:
; ON-NEXT: asm sideeffect "// ws:block {{[0-9]+}} (promoted)
; ON: done:
; ON: asm sideeffect "// ws:flush
; ON: ret void
; OFF-LABEL: define ptx_kernel void @two_probes(
; OFF-NOT: ws:init
; OFF: head:
; OFF: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}red.global.add.u64
; OFF: join:
; OFF-NEXT: asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}red.global.add.u64
; OFF-NOT: ws:flush
; OFF-NOT: (promoted)
; OFF: ret void
; The database marks the loop's records promoted (their counts arrive at
; the exit's flush) only where the loop is promoted.
; DBON: "name": "head",
; DBON-NEXT: "promoted": true,
; DBON: "name": "join",
; DBON-NEXT: "promoted": true,
; DBOFF: "name": "head",
; DBOFF-NEXT: "promoted": false,
; DBOFF: "name": "join",
; DBOFF-NEXT: "promoted": false,
define ptx_kernel void @two_probes(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %skip = icmp eq i32 %n, 0
  br i1 %skip, label %done, label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %join ]
  %x = xor i32 %i, %tid
  %odd = and i32 %x, 1
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %then, label %join
then:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %i, ptr addrspace(1) %p
  br label %join
join:
  %next = add nuw i32 %i, 1
  %more = icmp ult i32 %next, %n
  br i1 %more, label %head, label %done
done:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx80" }
