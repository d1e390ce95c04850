; Host modules are not the device pass's business: nothing changes and no
; database is written.
; RUN: rm -f %t.json
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck %s
; RUN: not test -e %t.json

target triple = "x86_64-unknown-linux-gnu"

; CHECK-NOT: __warpscope_counters
; CHECK-LABEL: define i32 @host(
; CHECK-NOT: asm
define i32 @host(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 2
}
