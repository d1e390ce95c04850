#!/usr/bin/env python3
"""The DOM Chromium rendered: every kernel is there, and the page's script
sorted the kernel table by SIMD efficiency (column 6), descending. The page
lists kernels by thread executions, which for this program is the opposite
order, so only a working sort passes."""
import re
import sys

dom = open(sys.argv[1]).read()
for name in ("alternate(int*, int)", "collatz(int const*, int*, int)",
             "per_block(int*, int)"):
    assert name in dom, name
table = dom[dom.index('id="kernels"'):]
table = table[:table.index("</table>")]
rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
simd = [float(re.findall(r'<td class="n">([\d.]+)%</td>', r)[0]) for r in rows]
threads = [int(re.findall(r'<td class="n" data-v="(\d+)">', r)[1]) for r in rows]
assert len(simd) == 3, rows
assert simd == sorted(simd, reverse=True), simd
assert threads != sorted(threads, reverse=True), "the page was not re-sorted"
print("ok: rendered and sorted by the page's script", simd)
