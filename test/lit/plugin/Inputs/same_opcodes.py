"""Compares `warpscope static --format json` of the plain (argv[1]) and the
instrumented (argv[2]) PTX: per function, the instrumented build's own
opcodes (instrumentation counted apart) against the plain build's. Prints
"same", or "differs by N" (the sum over opcodes of the count differences)
and the opcodes."""
import json
import sys

plain = {f["mangled"]: f["opcodes"] for f in json.load(open(sys.argv[1]))["functions"]}
inst = {f["mangled"]: f for f in json.load(open(sys.argv[2]))["functions"]}
for name, ops in sorted(plain.items()):
    f = inst[name]
    if f["instrumentation_instructions"] == 0:
        print("%s: not instrumented" % name)
    diff = {op: (ops.get(op, 0), f["opcodes"].get(op, 0))
            for op in set(ops) | set(f["opcodes"])
            if ops.get(op, 0) != f["opcodes"].get(op, 0)}
    n = sum(abs(a - b) for a, b in diff.values())
    print("%s: %s" % (name, "same" if not diff else
                          "differs by %d %s" % (n, sorted(diff.items()))))
