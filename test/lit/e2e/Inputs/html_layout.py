#!/usr/bin/env python3
"""html-in-chromium.test, the page a person looks at (issue 20, item 7).

  html_layout.py inject PAGE OUT   copy PAGE with a script that measures the
                                   laid-out page into <body data-probe=...>
  html_layout.py check DOM PAGE2   check what Chromium measured in DOM (the
                                   demo's page at 1280 px) and the page of a
                                   program with device functions, PAGE2
  html_layout.py sections DOM      the demo's page with modeled PC samples:
                                   its stall, memory, modeled-time and advice
                                   sections, laid out at 1280 px
"""
import json
import re
import sys

PROBE = """<script>
var de=document.documentElement,no=null;
document.querySelectorAll('pre.src span.l').forEach(function(l){
  if(!no&&l.querySelector('span.t').style.background)no=l.querySelector('span.no');});
var s=no?getComputedStyle(no):null;
// Line boxes of the most wrapped source-location cell (1: none wraps).
function lines(sel){var n=0;document.querySelectorAll(sel).forEach(function(td){
  var r=document.createRange();r.selectNodeContents(td);
  var tops={};Array.from(r.getClientRects()).forEach(function(b){tops[Math.round(b.top)]=1;});
  n=Math.max(n,Object.keys(tops).length);});return n;}
document.body.setAttribute('data-probe',JSON.stringify({scroll:de.scrollWidth,
  client:de.clientWidth,noBg:s?s.backgroundColor:null,noColor:s?s.color:null,
  locLines:lines('td.loc'),adviceLines:lines('table.advice td:first-child'),
  mapLines:lines('table.divmap td:first-child')}));
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

if sys.argv[1] == "sections":
    for title in ("Stall view (modeled PC sampling", "Memory view",
                  "Modeled time", "Advice"):
        assert "<h2>" + title in dom, title
    # Source locations stay on one line (file name, full path as title).
    assert probe["locLines"] == 1 and probe["adviceLines"] == 1, probe
    assert re.search(r'<td class="loc" title="[^"]*/divergence\.cu">divergence\.cu:\d+</td>', dom)
    print("ok: stall, memory, modeled-time and advice sections fit 1280 px")
    sys.exit(0)
# Line numbers of highlighted rows sit on their own light background in
# dark text, not on the heat colour.
assert probe["noBg"] == "rgb(244, 244, 244)", probe
assert probe["noColor"] == "rgb(51, 51, 51)", probe
assert '<details class="legend"' in dom and 'class="key"' in dom
# Divergence-map locations stay on one line.
assert probe["mapLines"] == 1, probe
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
