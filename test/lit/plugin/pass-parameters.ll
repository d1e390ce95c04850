; Pass options as pipeline parameters: parsed, printed back in the same
; form (only those that differ from the defaults), and overridden by a
; -warpscope-<name> option on the command line.
; RUN: %opt-ws -passes='warpscope-pgo-use<profile-use=app.profdata>,warpscope-device<probe-all;no-cheaper-counting;counter-replicas=4;module-id=00000000000000ab>,warpscope-host<no-histograms;db-in=x.json>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=PRINT %s
; RUN: %opt-ws -passes="$(%opt-ws -passes='warpscope-device<probe-all;counter-replicas=4>' -print-pipeline-passes -disable-output %s)" -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=ROUND %s
; RUN: %opt-ws -passes='warpscope-device<inlined-lines=headers;inlined-lines=keep>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=NAMED %s
; RUN: not %opt-ws -passes='warpscope-device<inlined-lines=all>' -disable-output %s 2>&1 | FileCheck --check-prefix=NAMES %s
; RUN: %opt-ws -passes='warpscope-device<instrument>' -print-pipeline-passes -disable-output %s | FileCheck --check-prefix=DEFAULT %s
; RUN: %opt-ws -passes='warpscope-device<no-instrument>' -S %s | FileCheck --check-prefix=OFF %s
; RUN: %opt-ws -passes='warpscope-device<no-instrument>' -warpscope-instrument=1 -warpscope-db-out=%t.json -S %s | FileCheck --check-prefix=ON %s
; RUN: not %opt-ws -passes='warpscope-device<bogus>' -disable-output %s 2>&1 | FileCheck --check-prefix=UNKNOWN %s
; RUN: not %opt-ws -passes='warpscope-device<counter-replicas=many>' -disable-output %s 2>&1 | FileCheck --check-prefix=NUMBER %s
; RUN: not %opt-ws -passes='warpscope-device<probe-all=1>' -disable-output %s 2>&1 | FileCheck --check-prefix=FLAG %s
; RUN: not %opt-ws -passes='warpscope-host<db-in>' -disable-output %s 2>&1 | FileCheck --check-prefix=VALUE %s

target triple = "nvptx64-nvidia-cuda"

; PRINT: warpscope-pgo-use<profile-use=app.profdata>,warpscope-device<probe-all;no-cheaper-counting;counter-replicas=4;module-id=00000000000000ab>,warpscope-host<db-in=x.json;no-histograms>,verify
; DEFAULT: warpscope-device,verify
; ROUND: warpscope-device<probe-all;counter-replicas=4>,verify,verify
; UNKNOWN: warpscope-device: parameter 'bogus' is unknown (docs/plugin-options.md lists them)
; NUMBER: warpscope-device: parameter 'counter-replicas=many' needs a whole number
; FLAG: warpscope-device: parameter 'probe-all=1' is a flag: write probe-all or no-probe-all
; VALUE: warpscope-host: parameter 'db-in' needs a value: db-in=...
; NAMED: warpscope-device<inlined-lines=keep>,verify
; NAMES: warpscope-device: parameter 'inlined-lines=all' needs one of keep, toolkit, headers (docs/plugin-options.md lists them)

; OFF-LABEL: define ptx_kernel void @k(
; OFF-NOT: ws:block
; ON-LABEL: define ptx_kernel void @k(
; ON: ws:block 0
define ptx_kernel void @k() {
  ret void
}
