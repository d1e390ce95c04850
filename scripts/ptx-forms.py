#!/usr/bin/env python3
"""The set of PTX instruction forms in PTX files (issue 16).

A form is the opcode with its modifiers and types (cvt.rzi.s32.f32) plus
the kinds of its non-register operands: immediates by literal syntax
(imm:dec imm:neg imm:hex imm:oct imm:bin imm:0f imm:0d
imm:float), special registers
(sreg:tid.x) and vectors (vec). Memory, symbol and register operands are
not part of the key.

  ptx-forms.py FILE.ptx...            print the sorted forms
  ptx-forms.py --check FORMS DOC COVERED...
      fail when a form listed in FORMS (clang-forms.txt) is neither in
      one of the COVERED lists (each suite's covered-forms.txt) nor in
      DOC's block of forms no suite covers (see docs/emulator.md,
      "Conformance").
  ptx-forms.py --uncovered FORMS COVERED...
      print that block: the uncovered forms, one line per opcode.
  ptx-forms.py --in-ptx COVERED FILE.ptx...
      fail when a form listed in COVERED (a suite's covered-forms.txt)
      does not occur in the suite's own PTX: a suite lists only what its
      kernels execute.
"""
import re
import sys

SREG = re.compile(r'%(tid|ntid|ctaid|nctaid|laneid|warpid|nwarpid|smid|'
                  r'nsmid|gridid|lanemask_\w+|clock\w*|globaltimer\w*|'
                  r'envreg\d+|pm\d+|dynamic_smem_size|total_smem_size|'
                  r'aggr_smem_size|is_explicit_cluster|cluster\w*|'
                  r'reserved_smem\w*)(\.[xyz])?$')


def operand_kind(op):
    """The key part of one operand, or None for registers/memory/symbols."""
    op = op.strip()
    if op.startswith('{'):
        return 'vec'
    if op.startswith('['):
        return None
    m = SREG.match(op)
    if m:
        return 'sreg:' + op[1:]
    if re.fullmatch(r'0[fF][0-9a-fA-F]{8}', op):
        return 'imm:0f'
    if re.fullmatch(r'0[dD][0-9a-fA-F]{16}', op):
        return 'imm:0d'
    if re.fullmatch(r'-?0[xX][0-9a-fA-F]+U?', op):
        return 'imm:hex'
    if re.fullmatch(r'-?0[bB][01]+U?', op):
        return 'imm:bin'
    if re.fullmatch(r'-?0[0-7]+U?', op):
        return 'imm:oct'
    if re.fullmatch(r'-\d+U?', op):
        return 'imm:neg'
    if re.fullmatch(r'\d+U?', op):
        return 'imm:dec'
    if re.fullmatch(r'-?\d*\.\d*([eE][-+]?\d+)?', op):
        return 'imm:float'
    return None


def split_operands(text):
    out, depth, cur = [], 0, ''
    for ch in text:
        if ch in '{[':
            depth += 1
        elif ch in '}]':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def form_key(stmt):
    """The form of one PTX instruction statement (no trailing ';')."""
    stmt = stmt.strip()
    if stmt.startswith('@'):
        stmt = stmt.split(None, 1)[1] if ' ' in stmt else ''
    parts = stmt.split(None, 1)
    if not parts:
        return None
    opcode = parts[0]
    kinds = []
    for op in split_operands(parts[1] if len(parts) > 1 else ''):
        # Predicated destination pairs like %p|%q are registers.
        k = operand_kind(op.split('|')[0])
        if k and k not in kinds:
            kinds.append(k)
    return ' '.join([opcode] + kinds)


def forms_of(text):
    keys = set()
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    for line in text.splitlines():
        line = line.split('//')[0].strip()
        for stmt in line.split(';'):
            stmt = stmt.strip().lstrip('{').rstrip('}').strip()
            if not stmt or stmt.startswith(('.', '$', '}', ')', '(')) or \
                    stmt.endswith(':') or not re.match(r'[@a-z]', stmt):
                continue
            if re.match(r'[A-Za-z_$][\w$]*\s*:', stmt):  # label, prototype
                continue
            key = form_key(stmt)
            if key:
                keys.add(key)
    return keys


def doc_block(path):
    """The forms listed in DOC between the not-covered markers."""
    text = open(path).read()
    m = re.search(r'<!-- not-covered-begin -->(.*?)<!-- not-covered-end -->',
                  text, re.S)
    if not m:
        sys.exit(f'{path}: no <!-- not-covered-begin --> block; add one '
                 '(see docs/emulator.md, "Conformance")')
    out = set()
    for line in m.group(1).splitlines():
        if ':' in line and not line.startswith('```'):
            out |= {f.strip() for f in line.split(':', 1)[1].split(',')
                    if f.strip()}
    return out


def read_list(path):
    return {l.strip() for l in open(path) if l.strip()
            and not l.startswith('#')}


def main(argv):
    if argv[:1] == ['--check']:
        if len(argv) < 4:
            sys.exit('usage: ptx-forms.py --check FORMS DOC COVERED...')
        forms, doc = read_list(argv[1]), doc_block(argv[2])
        covered = set()
        for path in argv[3:]:
            covered |= read_list(path)
        stale = sorted(forms - covered - doc)
        for s in stale:
            print(f'{s}: in {argv[1]} but neither covered by a suite nor '
                  f'listed as not covered in {argv[2]}; add a test or list it')
        both = sorted(covered & doc)
        for s in both:
            print(f'{s}: covered by a suite but still listed as not '
                  f'covered in {argv[2]}; remove it there')
        return 1 if stale or both else 0
    if argv[:1] == ['--in-ptx']:
        if len(argv) < 3:
            sys.exit('usage: ptx-forms.py --in-ptx COVERED FILE.ptx...')
        emitted = set()
        for path in argv[2:]:
            emitted |= forms_of(open(path).read())
        missing = sorted(read_list(argv[1]) - emitted)
        for s in missing:
            print(f'{s}: listed in {argv[1]} but not in the suite\'s PTX '
                  f'({", ".join(argv[2:])}); remove it or add a kernel')
        return 1 if missing else 0
    if argv[:1] == ['--uncovered']:
        # The block for DOC: uncovered forms grouped by opcode.
        rest = read_list(argv[1])
        for path in argv[2:]:
            rest -= read_list(path)
        rest = sorted(rest)
        groups = {}
        for f in rest:
            groups.setdefault(f.split('.')[0].split()[0], []).append(f)
        for op, fs in sorted(groups.items()):
            print(f'{op}: {", ".join(fs)}')
        return 0
    keys = set()
    for path in argv:
        keys |= forms_of(open(path).read())
    for k in sorted(keys):
        print(k)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
