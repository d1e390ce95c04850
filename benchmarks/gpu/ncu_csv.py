#!/usr/bin/env python3
"""Reads Nsight Compute's CSV, the one reader of that format for the
scripts in benchmarks/gpu. Two pages:

  details (`ncu --csv --page details`): one row per launch and metric; the
      CSV starts at the header row naming "Kernel Name" and "Metric Name"
      (split(), rows(), totals()).
  raw (`ncu --csv --page raw`): one row per launch, one column per metric;
      the header row starts with "ID" and names "Kernel Name" but no
      "Metric Name", and the next row gives each column's unit (empty for
      the launch columns); raw() reads it (a details page is a ValueError).
  TIME_SCALE and nanoseconds(): a time metric's unit, as ncu prints it.

  ncu_csv.py FILE.csv        prints, per kernel, launches and each metric's
                             sum over its launches (either page)

ncu mixes the program's own output and ==PROF== lines with the CSV. Values
may carry thousands separators ("4,544"). FILE may be gzipped (.gz).
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


def split(path):
    """(preamble, header, rows): the program's own output before the CSV,
    the CSV's column names, and its rows as lists of strings (a rows list
    is empty when the file holds no CSV)."""
    lines = read_text(path).splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"') and
                  "Kernel Name" in l and "Metric Name" in l), None)
    if start is None:
        return "\n".join(lines), [], []
    table = list(csv.reader(l for l in lines[start:] if l.startswith('"')))
    return "\n".join(lines[:start]), table[0], table[1:]


def raw(path):
    """(preamble, units, launches) of a raw-page CSV: the program's own
    output before the CSV, {column: unit}, and one dict per launch (column
    -> text, as ncu wrote it; number() converts). launches is empty when
    the file holds no raw-page CSV (e.g. ncu was killed before writing)."""
    lines = read_text(path).splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"') and
                  "Kernel Name" in l), None)
    if start is None:
        return "\n".join(lines), {}, []
    if "Metric Name" in lines[start]:
        raise ValueError("%s: a details page (a row per metric), not the raw "
                         "page" % path)
    table = list(csv.reader(l for l in lines[start:] if l.startswith('"')))
    header = table[0]
    body = table[1:]
    units = {}
    # The units row: its ID cell is empty, a launch's is a number.
    if body and not body[0][0].strip():
        units = dict(zip(header, body[0]))
        body = body[1:]
    launches = []
    for values in body:
        if len(values) != len(header):
            raise ValueError("%s: a raw-page row has %d fields, the header %d"
                             % (path, len(values), len(header)))
        launches.append(dict(zip(header, values)))
    return "\n".join(lines[:start]), units, launches


def nanoseconds(value, unit, what=""):
    """A time in ns from value in unit (TIME_SCALE); ValueError for a unit
    it does not know."""
    if unit not in TIME_SCALE:
        raise ValueError("%s: unknown time unit %r" % (what or "time", unit))
    return value * TIME_SCALE[unit]


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


def totals(path):
    """kernel -> OrderedDict(metric -> sum over launches, 'launches' -> n).
    A raw-page file: every numeric metric column (launch attributes left
    out)."""
    try:
        _, units, launches = raw(path)
    except ValueError:
        launches = None  # a details page
    if launches:
        return raw_totals(launches)
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


LAUNCH_COLUMNS = ("ID", "Process ID", "Process Name", "Host Name", "Kernel Name",
                  "Context", "Stream", "Block Size", "Grid Size", "Device", "CC")


def raw_totals(launches):
    sums = OrderedDict()
    for l in launches:
        k = l.get("Kernel Name", "").strip()
        d = sums.setdefault(k, OrderedDict())
        for m, text in l.items():
            if m in LAUNCH_COLUMNS:
                continue
            v = number(text)
            if v is not None:
                d[m] = d.get(m, 0.0) + v
        d["launches"] = d.get("launches", 0) + 1
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
