; Loop promotion's pressure limit (-warpscope-promote-max-pressure, default
; 32): a loop is promoted only where its own values need at most N 32-bit
; registers at once, by SSA liveness over the IR; ptxas keeps every promoted
; counter live through the loop on top of them (sgemm_shared: 40 registers
; promoted, 32 in memory). @heavy's loop holds 16 loaded i64 values at once
; (32 registers) besides its pointers and indices: in memory by default,
; promoted at N = 64 and with no limit (N = 0). @light's loop holds a few
; values: promoted by default.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.d.json -S %s | FileCheck --check-prefixes=LIGHT,OFF %s
; RUN: FileCheck --check-prefix=DBOFF %s < %t.d.json
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-promote-max-pressure=64 -warpscope-db-out=%t.64.json -S %s | FileCheck --check-prefixes=LIGHT,ON %s
; RUN: FileCheck --check-prefix=DBON %s < %t.64.json
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-promote-max-pressure=0 -warpscope-db-out=%t.0.json -S %s | FileCheck --check-prefixes=LIGHT,ON %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-promote-max-pressure=38 -warpscope-db-out=%t.38.json -S %s | FileCheck --check-prefixes=LIGHT,OFF %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-promote-max-pressure=39 -warpscope-db-out=%t.39.json -S %s | FileCheck --check-prefixes=LIGHT,ON %s

target triple = "nvptx64-nvidia-cuda"

; LIGHT-LABEL: define ptx_kernel void @light(
; LIGHT: entry:
; LIGHT: asm sideeffect "// ws:init
; LIGHT: head:
; LIGHT: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted)
; LIGHT: done:
; LIGHT: asm sideeffect "// ws:flush
define ptx_kernel void @light(ptr addrspace(1) %out, i32 %n) #0 {
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

; Live at once after the last load: %v0 .. %v15 (32), %out (2), %w (2),
; %i, %tid, %n (3), %a15 is dead: 39 registers.
; ON-LABEL: define ptx_kernel void @heavy(
; ON: entry:
; ON: asm sideeffect "// ws:init
; ON: head:
; ON: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}} (promoted)
; ON: done:
; ON: asm sideeffect "// ws:flush
; OFF-LABEL: define ptx_kernel void @heavy(
; OFF-NOT: ws:init
; OFF: head:
; OFF: asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}red.global.add.u64
; OFF-NOT: ws:flush
; OFF-NOT: (promoted)
; OFF: ret void
; The database marks the loop's records promoted only where it is.
; DBON: "name": "head",
; DBON-NEXT: "promoted": true,
; DBON: "name": "head",
; DBON-NEXT: "promoted": true,
; DBOFF: "name": "head",
; DBOFF-NEXT: "promoted": true,
; DBOFF: "name": "head",
; DBOFF-NEXT: "promoted": false,
define ptx_kernel void @heavy(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %skip = icmp eq i32 %n, 0
  br i1 %skip, label %done, label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %join ]
  %x = xor i32 %i, %tid
  %w = getelementptr i64, ptr addrspace(1) %out, i32 %x
  %a0 = getelementptr i64, ptr addrspace(1) %w, i32 0
  %v0 = load i64, ptr addrspace(1) %a0
  %a1 = getelementptr i64, ptr addrspace(1) %w, i32 1
  %v1 = load i64, ptr addrspace(1) %a1
  %a2 = getelementptr i64, ptr addrspace(1) %w, i32 2
  %v2 = load i64, ptr addrspace(1) %a2
  %a3 = getelementptr i64, ptr addrspace(1) %w, i32 3
  %v3 = load i64, ptr addrspace(1) %a3
  %a4 = getelementptr i64, ptr addrspace(1) %w, i32 4
  %v4 = load i64, ptr addrspace(1) %a4
  %a5 = getelementptr i64, ptr addrspace(1) %w, i32 5
  %v5 = load i64, ptr addrspace(1) %a5
  %a6 = getelementptr i64, ptr addrspace(1) %w, i32 6
  %v6 = load i64, ptr addrspace(1) %a6
  %a7 = getelementptr i64, ptr addrspace(1) %w, i32 7
  %v7 = load i64, ptr addrspace(1) %a7
  %a8 = getelementptr i64, ptr addrspace(1) %w, i32 8
  %v8 = load i64, ptr addrspace(1) %a8
  %a9 = getelementptr i64, ptr addrspace(1) %w, i32 9
  %v9 = load i64, ptr addrspace(1) %a9
  %a10 = getelementptr i64, ptr addrspace(1) %w, i32 10
  %v10 = load i64, ptr addrspace(1) %a10
  %a11 = getelementptr i64, ptr addrspace(1) %w, i32 11
  %v11 = load i64, ptr addrspace(1) %a11
  %a12 = getelementptr i64, ptr addrspace(1) %w, i32 12
  %v12 = load i64, ptr addrspace(1) %a12
  %a13 = getelementptr i64, ptr addrspace(1) %w, i32 13
  %v13 = load i64, ptr addrspace(1) %a13
  %a14 = getelementptr i64, ptr addrspace(1) %w, i32 14
  %v14 = load i64, ptr addrspace(1) %a14
  %a15 = getelementptr i64, ptr addrspace(1) %w, i32 15
  %v15 = load i64, ptr addrspace(1) %a15
  %s0 = add i64 %v15, %v14
  %s1 = add i64 %s0, %v13
  %s2 = add i64 %s1, %v12
  %s3 = add i64 %s2, %v11
  %s4 = add i64 %s3, %v10
  %s5 = add i64 %s4, %v9
  %s6 = add i64 %s5, %v8
  %s7 = add i64 %s6, %v7
  %s8 = add i64 %s7, %v6
  %s9 = add i64 %s8, %v5
  %s10 = add i64 %s9, %v4
  %s11 = add i64 %s10, %v3
  %s12 = add i64 %s11, %v2
  %s13 = add i64 %s12, %v1
  %s14 = add i64 %s13, %v0
  %odd = and i64 %s14, 1
  %c = icmp ne i64 %odd, 0
  br i1 %c, label %then, label %join
then:
  store i64 %s14, ptr addrspace(1) %w
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
