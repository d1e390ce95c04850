#!/usr/bin/env python3
"""html-in-chromium.test, the page a person looks at (issue 20, item 7).

  html_layout.py inject PAGE OUT   copy PAGE with a script that measures the
                                   laid-out page into <body data-probe=...>
  html_layout.py check DOM PAGE2   check what Chromium measured in DOM (the
                                   demo's page at 1280 px) and the page of a
                                   program with device functions, PAGE2
"""
import json
import re
import sys

PROBE = """<script>
var de=document.documentElement,no=null;
document.querySelectorAll('pre.src span.l').forEach(function(l){
  if(!no&&l.querySelector('span.t').style.background)no=l.querySelector('span.no');});
var s=no?getComputedStyle(no):null;
document.body.setAttribute('data-probe',JSON.stringify({scroll:de.scrollWidth,
  client:de.clientWidth,noBg:s?s.backgroundColor:null,noColor:s?s.color:null}));
</script>"""

if sys.argv[1] == "inject":
    page = open(sys.argv[2]).read()
    open(sys.argv[3], "w").write(page.replace("</body>", PROBE + "</body>"))
    sys.exit(0)

dom = open(sys.argv[2]).read()
m = re.search(r"data-probe=\"([^\"]*)\"", dom)
assert m, "the probe did not run"
probe = json.loads(m.group(1).replace("&quot;", '"'))
# No horizontal scrolling at 1280 px.
assert probe["scroll"] <= probe["client"], probe
# Line numbers of highlighted rows sit on their own light background in
# dark text, not on the heat colour.
assert probe["noBg"] == "rgb(244, 244, 244)", probe
assert probe["noColor"] == "rgb(51, 51, 51)", probe
assert '<details class="legend"' in dom and 'class="key"' in dom
# Launch configurations per kernel, and PTX instructions beside the source.
table = dom[dom.index('id="kernels"'):]
table = table[:table.index("</table>")]
assert "<th>grid / block</th>" in table
rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
assert len(rows) == 3 and all(re.search(r"\d+x1x1 / \d+x1x1", r) for r in rows), rows
assert re.search(r'<span class="ins">[\d,]+</span>', dom), "no per-line instructions"

# Device functions: no "launches 0", and their call sites.
page = open(sys.argv[3]).read()
table = page[page.index('id="kernels"'):]
table = table[:table.index("</table>")]
for name in ("steps(int)", "twice(int)"):
    row = next(r for r in re.findall(r"<tr>(.*?)</tr>", table, re.S) if name in r)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    assert cells[1] == "-" and "device function" in cells[2], cells
assert "called from own(int*)" in page
print("ok: fits 1280 px, readable line numbers, configurations, device functions")
