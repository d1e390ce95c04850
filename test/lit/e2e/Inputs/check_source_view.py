"""The HTML source view of diff_memory.cu's transpose kernel (issue 40,
item 9): html-source-view.test reads the page as written,
html-source-view-chromium.test as Chromium lays it out.

  check_source_view.py page PAGE          the per-line figures, marks, PTX,
                                          index and right-aligning CSS
  check_source_view.py missing PAGE FILE  FILE's view is gone and the index
                                          names it as not found
  check_source_view.py inject PAGE OUT    PAGE with a script that records,
                                          in <body data-probe>, the alignment
                                          of figures and whether the page
                                          scrolls sideways at 1280 px
  check_source_view.py layout DOM         what Chromium laid out
  check_source_view.py shot PAGE OUT      PAGE from the kernel's heading on,
                                          for a screenshot of its source view
  check_source_view.py png FILE           the screenshot shows something
"""
import json
import re
import sys

KERNEL = "s-_Z9transposePKfPfPi"

PROBE = """<script>
function style(sel){var e=document.querySelector(sel);
  return e?getComputedStyle(e):null;}
function align(sel){var s=style(sel);return s?s.textAlign:null;}
var de=document.documentElement,no=style('pre.src span.no.conflict');
document.body.setAttribute('data-probe',JSON.stringify({
  scroll:de.scrollWidth,client:de.clientWidth,
  cnt:align('pre.src span.l:not(.hd) span.cnt'),
  sec:align('pre.src span.l:not(.hd) span.sec'),
  wav:align('pre.src span.l:not(.hd) span.wav'),
  memory:align('table.memory td:nth-child(2)'),
  kernels:align('#kernels tbody td:nth-child(2)'),
  ptx:align('pre.src span.l:not(.hd) span.ptx'),
  noBg:no?no.backgroundColor:null}));
</script>"""


def line(page, n):
    """(section id, cells) of the source view's line n of diff_memory.cu."""
    m = re.search(r'<span class="l" id="(%s-\d+)-%d">(.*?)'
                  r'</span></span>(?=<span class="l"|</pre>)' % (KERNEL, n),
                  page)
    assert m, "no line %d" % n
    return m.group(1), m.group(2)


def check_page(page):
    # The header names every column.
    head = re.search(r'<span class="l hd">(.*?</span>)</span>', page).group(1)
    for column in ("threads", "PTX instr.", "divergent/visits",
                   "sectors/req (ideal)", "wavefronts/req (ideal)",
                   "modeled samples", "source", "PTX"):
        assert ">%s<" % column in head, (column, head)
    # The strided load (32 sectors a request, 4 ideal) and the 32-way bank
    # conflict (32 wavefronts, 1 ideal) are on their lines, each marked, and
    # the line number with it.
    section, l18 = line(page, 18)
    assert re.search(r'<span class="sec conflict"[^>]*>32\.00 / 4\.00</span>',
                     l18), l18
    assert l18.startswith('<span class="no conflict">18</span>'), l18
    _, l19 = line(page, 19)
    assert re.search(r'<span class="wav conflict"[^>]*>32\.00 / 1\.00</span>',
                     l19), l19
    assert l19.startswith('<span class="no conflict">19</span>'), l19
    # A line without memory accesses is not marked.
    _, l17 = line(page, 17)
    assert "conflict" not in l17, l17
    # The line's own PTX beside its source, after it: the load on 18, the
    # shared store on 19.
    assert re.search(r'<span class="t"[^>]*>.*</span><span class="ptx">'
                     r'.*>ld\.global\.[^<]*</span>', l18), l18
    assert re.search(r'<span class="ptx">.*>st\.shared\.[^<]*</span>', l19), l19
    assert "ld.global" not in l19, l19
    # Some line has samples and names its stall reason.
    assert re.search(r'<span class="stl" title="\d+ of \d+ samples stalled on '
                     r'[a-z_]+">[\d,]+ [a-z_]+</span>', page)
    # Thread executions on the load's line: 32 blocks of 32 threads.
    assert re.search(r'<span class="cnt"[^>]*>1,024</span>', l18), l18
    # The index links to the view.
    assert re.search(r'<details class="files" open><summary>Source views'
                     r'</summary><ul><li><a href="#%s" title="[^"]*'
                     r'diff_memory\.cu">diff_memory\.cu</a>: transpose'
                     % section, page), "no index entry"
    # An aggregate run times nothing: no column of dashes.
    assert "<th>launches</th><th>grid / block</th><th>basic block" in page
    assert "time (ms" not in page
    # Figures are right-aligned by the stylesheet, source and PTX left.
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    assert re.search(r"pre\.src span\.l>span\{[^}]*text-align:right", style)
    assert re.search(r"td\.n\{[^}]*text-align:right", style)
    assert re.search(r"table\.memory td:not\(:first-child\)[^{]*\{"
                     r"[^}]*text-align:right", style)
    for cls in ("t", "ptx"):
        assert re.search(r"pre\.src span\.l>span\.%s\{[^}]*text-align:left"
                         % cls, style), cls
    print("ok: source view with memory, samples and PTX per line, index")


def check_missing(page, path):
    assert KERNEL + "-0-" not in page, "a view without its source"
    m = re.search(r'<p class="missing">(.*?)</p>', page)
    assert m and "<code>%s</code>" % path in m.group(1), m and m.group(1)
    assert "--path-equivalence" in m.group(1)
    print("ok: the index names the file it did not find")


def check_layout(dom):
    probe = json.loads(re.search(r'data-probe="([^"]*)"', dom).group(1)
                       .replace("&quot;", '"'))
    # Figures right-aligned, PTX left; nothing scrolls sideways.
    for key in ("cnt", "sec", "wav", "memory", "kernels"):
        assert probe[key] == "right", (key, probe)
    assert probe["ptx"] == "left", probe
    assert probe["scroll"] <= probe["client"], probe
    # A conflicting line's number is orange, not the plain grey.
    assert probe["noBg"] == "rgba(240, 150, 0, 0.55)", probe
    print("ok: laid out at 1280 px, figures right-aligned")


# Headless Chromium shoots the top of the page whatever the fragment, so
# the shot's page starts at the kernel: its title, then the kernel's own.
SHOT = """<script>
var k=document.getElementById('f-_Z9transposePKfPfPi');
while(k.previousElementSibling&&k.previousElementSibling.tagName!='H1')
  k.previousElementSibling.remove();
</script>"""

if sys.argv[1] in ("inject", "shot"):
    script = PROBE if sys.argv[1] == "inject" else SHOT
    page = open(sys.argv[2]).read()
    open(sys.argv[3], "w").write(page.replace("</body>", script + "</body>"))
elif sys.argv[1] == "png":
    # A blank 1280 px page compresses to about 5 KB.
    png = open(sys.argv[2], "rb").read()
    assert png.startswith(b"\x89PNG") and len(png) > 40000, len(png)
    print("ok: a screenshot of", len(png), "bytes")
elif sys.argv[1] == "page":
    check_page(open(sys.argv[2]).read())
elif sys.argv[1] == "missing":
    check_missing(open(sys.argv[2]).read(), sys.argv[3])
else:
    check_layout(open(sys.argv[2]).read())
