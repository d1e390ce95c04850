#!/usr/bin/env python3
"""Reads Nsight Compute's CSV (`ncu --csv --page details`), the one reader
of that format for the scripts in benchmarks/gpu.

  ncu_csv.py FILE.csv        prints, per kernel, launches and each metric's
                             sum over its launches

ncu mixes the program's own output and ==PROF== lines with the CSV; the CSV
starts at the header row naming "Kernel Name" and "Metric Name". Values may
carry thousands separators ("4,544"). FILE may be gzipped (.gz).
"""
import csv
import gzip
import sys
from collections import OrderedDict, defaultdict


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
