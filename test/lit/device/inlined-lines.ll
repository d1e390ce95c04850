; Which inlined code takes its call site's line (-warpscope-inlined-lines,
; passes/InlinedLines.cpp): with `toolkit` (the default), code of clang's,
; a CUDA toolkit's and the system's headers gets the nearest call site
; outward that is in another file and has a line; a user's header keeps its
; lines, and so does code with no such call site (a kernel in a CUDA header).
; `headers` moves a user header's code too; `keep` moves none. Run with no
; inlining pass: the inlined-at chains below are as clang's inliner leaves
; them.
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck --check-prefixes=CHECK,TOOLKIT %s
; RUN: %opt-ws -passes=warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -warpscope-inlined-lines=headers -S %s | FileCheck --check-prefixes=CHECK,HEADERS %s
; RUN: %opt-ws -passes='warpscope-device<inlined-lines=keep>' -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %s | FileCheck --check-prefixes=CHECK,KEEP %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @_Z1kPi(
; CHECK: %a = add i32 %x, 1, !dbg ![[A:[0-9]+]]
; CHECK: %b = add i32 %a, 2, !dbg ![[B:[0-9]+]]
; CHECK: %c = add i32 %b, 3, !dbg ![[C:[0-9]+]]
; CHECK: %d = add i32 %c, 4, !dbg ![[D:[0-9]+]]
; CHECK: store i32 %d, ptr addrspace(1) %p, align 4, !dbg ![[E:[0-9]+]]
; CHECK-LABEL: define ptx_kernel void @_Z2hkPi(
; CHECK: %h = add i32 %x, 5, !dbg ![[H:[0-9]+]]
;
; A CUDA header (targets/<triple>/include) inlined in the kernel: the call.
; TOOLKIT-DAG: ![[A]] = !DILocation(line: 10, column: 3, scope: ![[K:[0-9]+]])
; HEADERS-DAG: ![[A]] = !DILocation(line: 10, column: 3, scope: ![[K:[0-9]+]])
; KEEP-DAG: ![[A]] = !DILocation(line: 101, column: 5,
; A user's header: moved only by `headers`.
; TOOLKIT-DAG: ![[B]] = !DILocation(line: 7, column: 2,
; HEADERS-DAG: ![[B]] = !DILocation(line: 11, column: 4, scope: ![[K]])
; KEEP-DAG: ![[B]] = !DILocation(line: 7, column: 2,
; threadIdx read in a CUDA header function inlined in a user helper inlined
; in the kernel: the helper's line (the nearest), still inlined in the
; kernel at line 12.
; TOOLKIT-DAG: ![[C]] = !DILocation(line: 4, column: 6, scope: ![[HELPER:[0-9]+]], inlinedAt: ![[AT12:[0-9]+]])
; TOOLKIT-DAG: ![[AT12]] = distinct !DILocation(line: 12, column: 8,
; KEEP-DAG: ![[C]] = !DILocation(line: 53, column: 27,
; libstdc++ through a call site with no line: the next one out.
; TOOLKIT-DAG: ![[D]] = !DILocation(line: 13, column: 1, scope: ![[K]])
; KEEP-DAG: ![[D]] = !DILocation(line: 230, column: 7,
; The kernel's own line.
; CHECK-DAG: ![[E]] = !DILocation(line: 14, column: 2,
; A kernel in a CUDA header: no call site outside the headers.
; CHECK-DAG: ![[H]] = !DILocation(line: 53, column: 27,

define ptx_kernel void @_Z1kPi(ptr addrspace(1) %p) !dbg !10 {
entry:
  %x = load i32, ptr addrspace(1) %p, align 4, !dbg !40
  %a = add i32 %x, 1, !dbg !41
  %b = add i32 %a, 2, !dbg !42
  %c = add i32 %b, 3, !dbg !43
  %d = add i32 %c, 4, !dbg !44
  store i32 %d, ptr addrspace(1) %p, align 4, !dbg !40
  ret void, !dbg !40
}

define ptx_kernel void @_Z2hkPi(ptr addrspace(1) %p) !dbg !16 {
entry:
  %x = load i32, ptr addrspace(1) %p, align 4, !dbg !45
  %h = add i32 %x, 5, !dbg !46
  store i32 %h, ptr addrspace(1) %p, align 4, !dbg !45
  ret void, !dbg !45
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!1}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !2, isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !{i32 2, !"Debug Info Version", i32 3}
; The compiled source lies under a directory named like a toolkit's.
!2 = !DIFile(filename: "k.cu", directory: "/home/u/cuda-samples")
!3 = !DIFile(filename: "__clang_cuda_builtin_vars.h", directory: "/usr/lib/llvm-22/lib/clang/22/include")
!4 = !DIFile(filename: "crt/math_functions.hpp", directory: "/usr/local/cuda-13.0/targets/x86_64-linux/include")
!5 = !DIFile(filename: "/home/u/proj/include/mine.h", directory: "/home/u/cuda-samples")
!6 = !DIFile(filename: "/usr/include/c++/12/bits/stl_algobase.h", directory: "/home/u/cuda-samples")
!7 = !DISubroutineType(types: !8)
!8 = !{}
!10 = distinct !DISubprogram(name: "k", linkageName: "_Z1kPi", scope: !2, file: !2, line: 1, type: !7, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!11 = distinct !DISubprogram(name: "tid", scope: !3, file: !3, line: 50, type: !7, scopeLine: 50, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!12 = distinct !DISubprogram(name: "expf", scope: !4, file: !4, line: 100, type: !7, scopeLine: 100, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!13 = distinct !DISubprogram(name: "mine", scope: !5, file: !5, line: 6, type: !7, scopeLine: 6, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!14 = distinct !DISubprogram(name: "min", scope: !6, file: !6, line: 229, type: !7, scopeLine: 229, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!15 = distinct !DISubprogram(name: "helper", scope: !2, file: !2, line: 3, type: !7, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!16 = distinct !DISubprogram(name: "hk", linkageName: "_Z2hkPi", scope: !4, file: !4, line: 200, type: !7, scopeLine: 200, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)

!20 = distinct !DILocation(line: 10, column: 3, scope: !10)
!21 = distinct !DILocation(line: 11, column: 4, scope: !10)
!22 = distinct !DILocation(line: 102, column: 9, scope: !12, inlinedAt: !23)
!23 = distinct !DILocation(line: 4, column: 6, scope: !15, inlinedAt: !24)
!24 = distinct !DILocation(line: 12, column: 8, scope: !10)
!25 = distinct !DILocation(line: 0, scope: !15, inlinedAt: !26)
!26 = distinct !DILocation(line: 13, column: 1, scope: !10)
!27 = distinct !DILocation(line: 201, column: 3, scope: !16)

!40 = !DILocation(line: 14, column: 2, scope: !10)
!41 = !DILocation(line: 101, column: 5, scope: !12, inlinedAt: !20)
!42 = !DILocation(line: 7, column: 2, scope: !13, inlinedAt: !21)
!43 = !DILocation(line: 53, column: 27, scope: !11, inlinedAt: !22)
!44 = !DILocation(line: 230, column: 7, scope: !14, inlinedAt: !25)
!45 = !DILocation(line: 202, column: 2, scope: !16)
!46 = !DILocation(line: 53, column: 27, scope: !11, inlinedAt: !27)
