; The profile-use pass attaches a record's counts to the function whose
; CFG checksum it carries (warpscope/ABI/PgoRecord.h): the entry block's warp
; executions as the entry count, each side's threads as branch weights, and
; divergent visits / visits as !warpscope.divergence. The profile is made
; here from text: the checksum from the database the device pass writes.
; RUN: rm -rf %t && mkdir -p %t
; RUN: %opt-ws -passes=warpscope-device -warpscope-module-id=00000000000000ad -warpscope-db-out=%t/db.json -disable-output %s
; Counters: blocks entry, then, done (warp executions); then entry's sides
; by ascending block index (then: 40 threads, done: 280), divergent visits,
; visits.
; RUN: %python -c "import json,sys; f=json.load(open(sys.argv[1]))['functions'][0]; print(':ir'); print('00000000000000ad;' + f['name']); print(int(f['cfg_checksum'], 16) & 0x0FFFFFFFFFFFFFFF); print(len(sys.argv) - 2); print(*sys.argv[2:], sep='\n')" %t/db.json 10 4 10 40 280 4 10 > %t/prof.proftext
; RUN: %llvm-profdata merge %t/prof.proftext -o %t/prof.profdata
; RUN: %opt-ws -passes=warpscope-pgo-use -warpscope-profile-use=%t/prof.profdata -warpscope-module-id=00000000000000ad -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @_Z4kernPi(
; CHECK-SAME: !prof ![[ENTRY:[0-9]+]] {
; CHECK: br i1 %c, label %then, label %done, !prof ![[WEIGHTS:[0-9]+]], !warpscope.divergence ![[DIV:[0-9]+]]
; CHECK: ret void
define ptx_kernel void @_Z4kernPi(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %then, label %done
then:
  store i32 1, ptr addrspace(1) %p
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK: ![[ENTRY]] = !{!"function_entry_count", i64 10}
; CHECK: ![[WEIGHTS]] = !{!"branch_weights", i32 40, i32 280}
; CHECK: ![[DIV]] = !{double 4.000000e-01}
