; Probes after calls pick their replica themselves
; (-warpscope-replica-after-calls, default on): ptxas allocates a caller's
; registers live across a call besides the callee's own, so the replica
; the function picks at its entry ("ws:replica") is not handed to a probe
; outside every loop that a call may precede; that probe reads the clock
; itself (it runs at most once per invocation, like the entry's pick).
; Probes before every call, and probes in loops (whose calls keep it live
; anyway), still take the function's; where none does, the function
; picks none at its entry. Off (OFF): every probe takes the function's.
; RUN: %opt-ws -passes=warpscope-device -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-replica-after-calls=0 -warpscope-db-out=%t0.json -S %s | FileCheck %s --check-prefix=OFF

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @_Z4stepi(
define i32 @_Z4stepi(i32 %x) noinline {
entry:
  %r = mul i32 %x, 3
  ret i32 %r
}

; The entry's probe precedes every call: the function's replica. The join
; and the exit, after a call, pick their own; the loop's block probe, with
; a call in the loop, takes the function's.
; CHECK-LABEL: define ptx_kernel void @caller(
; CHECK: %[[PICK:[0-9]+]] = call i64 asm sideeffect "// ws:replica
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}mov.u64 %wsg, $1;{{.*}}", "b,l"(i1 %{{[0-9]+}}, i64 %[[PICK]])
; CHECK: call i32 @_Z4stepi(
; CHECK: join:
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}mov.u32 %wsk, %clock;{{.*}}", "b"(i1
; CHECK: loop:
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}", "l"(i64 %[[PICK]])
; CHECK-NEXT: call i32 @_Z4stepi(
; CHECK: done:
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}mov.u32 %wsk, %clock;\0A\09and.b32 %wsk, %wsk, 255;\0A\09mov.u64 %wsg, __warpscope_counters_{{[0-9a-f]+}};\0A\09mad.wide.u32 %wsg, %wsk, {{[0-9]+}}, %wsg;{{.*}}", ""()
; OFF-LABEL: define ptx_kernel void @caller(
; OFF: join:
; OFF: call void asm sideeffect "// ws:block {{[0-9]+}} ws:branch {{[0-9]+}}\0A{{.*}}mov.u64 %wsg, $1;{{.*}}", "b,l"(i1 %{{[0-9]+}}, i64 %{{[0-9]+}})
; OFF: done:
; OFF: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}mov.u64 %wsg, $0;{{.*}}", "l"(i64 %{{[0-9]+}})
define ptx_kernel void @caller(ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = icmp ne i32 %tid, 5
  br i1 %odd, label %first, label %join
first:
  %a = call i32 @_Z4stepi(i32 %tid)
  store i32 %a, ptr addrspace(1) %out
  br label %join
join:
  %v = phi i32 [ %tid, %entry ], [ %a, %first ]
  %go = icmp slt i32 %v, %n
  br i1 %go, label %loop, label %done
loop:
  %i = phi i32 [ %v, %join ], [ %next, %loop ]
  %s = call i32 @_Z4stepi(i32 %i)
  %next = add i32 %i, %s
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A call in the entry block: its block probe, at the block's start, takes
; the function's replica; the branch after the call and the exit pick their
; own.
; CHECK-LABEL: define ptx_kernel void @callfirst(
; CHECK: %[[COFF:[0-9]+]] = call i64 asm sideeffect "// ws:replica
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}", "l"(i64 %[[COFF]])
; CHECK: call i32 @_Z4stepi(
; CHECK: call void asm sideeffect "// ws:branch {{[0-9]+}}\0A{{.*}}mov.u32 %wsk, %clock;{{.*}}", "b"(i1
; CHECK: end:
; CHECK: call void asm sideeffect "// ws:block {{[0-9]+}}\0A{{.*}}mov.u32 %wsk, %clock;{{.*}}", ""()
; OFF-LABEL: define ptx_kernel void @callfirst(
; OFF: call i32 @_Z4stepi(
; OFF: call void asm sideeffect "// ws:branch {{[0-9]+}}\0A{{.*}}mov.u64 %wsg, $1;{{.*}}", "b,l"(i1
define ptx_kernel void @callfirst(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = call i32 @_Z4stepi(i32 %tid)
  %big = icmp sgt i32 %a, 40
  br i1 %big, label %then, label %end
then:
  store i32 %a, ptr addrspace(1) %out
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
