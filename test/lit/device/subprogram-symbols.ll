; State between passes is in the IR: the subprogram-names pass, at the start
; of the pipeline, records each device function's symbol by its subprogram
; in the named metadata !warpscope.subprogram.symbols; the device pass, in a
; separate opt after inlining, names inlined frames of the database's inline
; stacks by that symbol (_Z6digitsj, what the sample loader looks up) instead
; of the line-tables-only debug name (digits), and takes the record out of
; the module.
; RUN: %opt-ws -passes=warpscope-subprogram-names -S %s -o %t.names.ll
; RUN: FileCheck --check-prefix=NAMES %s < %t.names.ll
; RUN: %opt-ws -passes=always-inline,warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.json -S %t.names.ll | FileCheck --check-prefix=DEV %s
; RUN: %python -c "import json,sys; [print(' | '.join(' > '.join('%%s:%%d' %% (f['function'], f['line_offset']) for f in s) for s in b['inline_stacks'])) for fn in json.load(open(sys.argv[1]))['functions'] for b in fn['blocks']]" %t.json | FileCheck --check-prefix=STACKS %s
; Without the record, the inlined frame keeps its debug name.
; RUN: %opt-ws -passes=always-inline,warpscope-device -warpscope-counter-replicas=1 -warpscope-db-out=%t.plain.json -disable-output %s
; RUN: %python -c "import json,sys; [print(' | '.join(' > '.join('%%s:%%d' %% (f['function'], f['line_offset']) for f in s) for s in b['inline_stacks'])) for fn in json.load(open(sys.argv[1]))['functions'] for b in fn['blocks']]" %t.plain.json | FileCheck --check-prefix=PLAIN %s

target triple = "nvptx64-nvidia-cuda"

; NAMES: !warpscope.subprogram.symbols = !{![[D:[0-9]+]], ![[C:[0-9]+]]}
; NAMES-DAG: ![[D]] = !{![[SPD:[0-9]+]], !"_Z6digitsj"}
; NAMES-DAG: ![[C]] = !{![[SPC:[0-9]+]], !"_Z5countPj"}
; NAMES-DAG: ![[SPD]] = distinct !DISubprogram(name: "digits",
; NAMES-DAG: ![[SPC]] = distinct !DISubprogram(name: "count",

; DEV-NOT: warpscope.subprogram.symbols
; DEV-LABEL: define ptx_kernel void @_Z5countPj(
; DEV-NOT: call i32 @_Z6digitsj
; DEV: ret void
; DEV-NOT: warpscope.subprogram.symbols

; STACKS: _Z5countPj:1 | _Z5countPj:2 > _Z6digitsj:1 | _Z5countPj:3
; PLAIN: _Z5countPj:1 | _Z5countPj:2 > digits:1 | _Z5countPj:3

define internal i32 @_Z6digitsj(i32 %v) alwaysinline !dbg !10 {
entry:
  %c = icmp ugt i32 %v, 9, !dbg !12
  %r = select i1 %c, i32 2, i32 1, !dbg !12
  ret i32 %r, !dbg !13
}

define ptx_kernel void @_Z5countPj(ptr addrspace(1) %out) !dbg !20 {
entry:
  %v = load i32, ptr addrspace(1) %out, !dbg !21
  %d = call i32 @_Z6digitsj(i32 %v), !dbg !22
  store i32 %d, ptr addrspace(1) %out, !dbg !23
  ret void, !dbg !23
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "digits.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "digits", scope: !1, file: !1, line: 3, type: !11, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = !DILocation(line: 4, column: 10, scope: !10)
!13 = !DILocation(line: 5, column: 3, scope: !10)
!20 = distinct !DISubprogram(name: "count", scope: !1, file: !1, line: 8, type: !11, scopeLine: 8, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!21 = !DILocation(line: 9, column: 11, scope: !20)
!22 = !DILocation(line: 10, column: 11, scope: !20)
!23 = !DILocation(line: 11, column: 3, scope: !20)
