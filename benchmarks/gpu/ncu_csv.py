#!/usr/bin/env python3
"""Reads Nsight Compute's CSV, the one reader of that format for the
scripts in benchmarks/ (gpu/ and advisor/): the details page
(`ncu --csv --page details`, a row per launch and metric) and the raw page
(`ncu --csv --page raw`, a row per launch, a column per metric, with
`--print-units base` a row of units under the header).

  ncu_csv.py FILE.csv        prints, per kernel, launches and each metric's
                             sum over its launches (details page)

ncu mixes the program's own output and ==PROF== lines with the CSV; the CSV
starts at the header row: it opens with "ID" and names "Kernel Name" (and
"Metric Name" on the details page). Values may carry thousands separators
("4,544"). FILE may be gzipped (.gz).
"""
import csv
import gzip
import sys
from collections import OrderedDict, defaultdict

# Nanoseconds per unit of a time metric (gpu__time_duration), as ncu
# prints its units with and without --print-units base.
TIME_SCALE = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3,
              "ms": 1e6, "msecond": 1e6, "s": 1e9, "second": 1e9}


def read_text(path):
    """The file's text; a .gz file is read through gzip."""
    if path.endswith(".gz"):
        with gzip.open(path, "rt", errors="replace", newline="") as f:
            return f.read()
    with open(path, errors="replace", newline="") as f:
        return f.read()


def is_header(line):
    """Whether line is the CSV's header row: the details page's names
    "Kernel Name" and "Metric Name"; the raw page's opens with "ID" and
    names "Kernel Name"."""
    return line.startswith('"') and "Kernel Name" in line and \
        ("Metric Name" in line or line.startswith('"ID",'))


def split(path):
    """(preamble, header, rows): the program's own output before the CSV,
    the CSV's column names, and its rows as lists of strings (a rows list
    is empty when the file holds no CSV)."""
    lines = read_text(path).splitlines()
    start = next((i for i, l in enumerate(lines) if is_header(l)), None)
    if start is None:
        return "\n".join(lines), [], []
    table = list(csv.reader(l for l in lines[start:] if l.startswith('"')))
    return "\n".join(lines[:start]), table[0], table[1:]


def number(text):
    """A metric value as a float ("4,544" -> 4544.0), or None."""
    try:
        return float((text or "").replace(",", "").strip())
    except ValueError:
        return None


def rows(path):
    """Yields one dict per (launch, metric) row: ID, Kernel Name, Grid Size,
    Block Size, Metric Name, Metric Unit, Metric Value (a float, or None
    when not a number)."""
    _, header, table = split(path)
    for values in table:
        r = dict(zip(header, values))
        r["Metric Value"] = number(r.get("Metric Value"))
        yield r


def raw(path):
    """(units, launches) of a raw-page CSV: units maps each column to its
    unit (the row under the header that --print-units writes, its ID
    empty; {} without it), launches is one dict per launch, column -> text,
    in the file's order (read values with number()). ValueError for a
    details page or a row whose fields do not match the header."""
    _, header, table = split(path)
    if not header:
        return {}, []
    if "Metric Name" in header:
        raise ValueError("%s: a details page (a row per metric), not the raw "
                         "page" % path)
    units = {}
    if table and table[0] and table[0][0] == "":
        units, table = dict(zip(header, table[0])), table[1:]
    launches = []
    for values in table:
        if len(values) != len(header):
            raise ValueError("%s: a row of %d fields under a header of %d" %
                             (path, len(values), len(header)))
        launches.append(dict(zip(header, values)))
    return units, launches


def nanoseconds(value, unit, what=""):
    """A time in ns from value in unit (TIME_SCALE); ValueError for a unit
    it does not know."""
    if unit not in TIME_SCALE:
        raise ValueError("%s: unknown time unit %r" % (what or "time", unit))
    return value * TIME_SCALE[unit]


def totals(path):
    """kernel -> OrderedDict(metric -> sum over launches, 'launches' -> n)."""
    sums = OrderedDict()
    launches = defaultdict(set)
    for r in rows(path):
        k = (r.get("Kernel Name") or "").strip()
        m, v = (r.get("Metric Name") or "").strip(), r["Metric Value"]
        if not k or not m or v is None:
            continue
        sums.setdefault(k, OrderedDict())
        sums[k][m] = sums[k].get(m, 0.0) + v
        launches[k].add(r.get("ID"))
    for k in sums:
        sums[k]["launches"] = len(launches[k])
    return sums


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for k, ms in totals(argv[1]).items():
        print(k, " ".join("%s=%s" % (m, ("%.6g" % v) if v != int(v) else int(v))
                          for m, v in ms.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
