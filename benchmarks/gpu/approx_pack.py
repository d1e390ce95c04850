#!/usr/bin/env python3
"""Packs and reads approx_dump's result files (issue 39 item 5).

    approx_pack.py pack DIR       DIR/<file>.bin -> DIR/<file>.bin.xz, in
                                  parallel; the .bin files are removed
    approx_pack.py list DIR       one line per set: form, kind, count, sha256
    approx_pack.py cut SRC DST FILE:START:COUNT[:NAME]...
                                  DST gets results START.. START+COUNT-1 of
                                  SRC's set FILE as NAME (default FILE),
                                  packed, and a manifest of the cuts: the
                                  slice of a sweep, or prefix of a random
                                  set, that approx_dump SETS recomputes

The packed form is a standard .xz stream with a 4-byte delta filter before
LZMA2: consecutive results of a sweep differ in their low bytes only, which
the delta filter turns into runs. `read()` is the one reader (stdlib only:
lzma), used by the tests under test/conformance/approx/.
"""
import hashlib
import lzma
import os
import sys
from concurrent.futures import ProcessPoolExecutor

FILTERS = [{"id": lzma.FILTER_DELTA, "dist": 4},
           {"id": lzma.FILTER_LZMA2, "preset": 2}]


class PackError(Exception):
    pass


def manifest(d):
    """[(file, form, kind, first, count, width)] from DIR/manifest.txt."""
    sets = []
    path = os.path.join(d, "manifest.txt")
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise PackError("%s: cannot read (%s)" % (path, e.strerror))
    for n, line in enumerate(lines, 1):
        f = line.split()
        if len(f) != 6 or f[2] not in ("sweep", "random") or f[5] not in ("4", "8"):
            raise PackError("%s:%d: not 'file form sweep|random first count "
                            "width'" % (path, n))
        sets.append((f[0], f[1], f[2], int(f[3], 16), int(f[4]), int(f[5])))
    return sets


def read(d, name, count, width):
    """The result words of one set, as bytes, from .bin.xz or .bin."""
    for path, load in ((os.path.join(d, name + ".xz"), lzma.decompress),
                       (os.path.join(d, name), lambda b: b)):
        if os.path.exists(path):
            try:
                data = load(open(path, "rb").read())
            except lzma.LZMAError as e:
                raise PackError("%s: damaged xz stream (%s)" % (path, e))
            if len(data) != count * width:
                raise PackError("%s: %d bytes, manifest says %d results of %d "
                                "bytes" % (path, len(data), count, width))
            return data
    raise PackError("%s: missing (neither .bin nor .bin.xz)" %
                    os.path.join(d, name))


def _pack_one(path):
    data = open(path, "rb").read()
    with open(path + ".xz", "wb") as f:
        f.write(lzma.compress(data, format=lzma.FORMAT_XZ, filters=FILTERS))
    os.remove(path)
    return path


def pack(d):
    files = [os.path.join(d, s[0]) for s in manifest(d)]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for p in ex.map(_pack_one, files):
            print("packed", os.path.basename(p))


def cut(src, dst, specs):
    sets = {s[0]: s for s in manifest(src)}
    lines = []
    for spec in specs:
        f = spec.split(":")
        if len(f) not in (3, 4) or f[0] not in sets:
            raise PackError("%s: not FILE:START:COUNT[:NAME] of a set in %s"
                            % (spec, src))
        name, form, kind, first, count, width = sets[f[0]]
        start, n = int(f[1], 0), int(f[2], 0)
        if start < 0 or n <= 0 or start + n > count or (
                kind == "random" and start != 0):
            raise PackError("%s: not within the set (a random set's cut "
                            "starts at 0)" % spec)
        data = read(src, name, count, width)[start * width:(start + n) * width]
        out = f[3] if len(f) == 4 else name
        with open(os.path.join(dst, out + ".xz"), "wb") as fh:
            fh.write(lzma.compress(data, format=lzma.FORMAT_XZ,
                                   filters=FILTERS))
        lines.append("%s %s %s %x %d %d\n" % (
            out, form, kind, first + start if kind == "sweep" else first, n,
            width))
    with open(os.path.join(dst, "manifest.txt"), "w") as fh:
        fh.writelines(lines)


def main(argv):
    if len(argv) < 3 or argv[1] not in ("pack", "list", "cut") or (
            (argv[1] == "cut") != (len(argv) > 3)):
        sys.stderr.write(__doc__)
        return 2
    try:
        if argv[1] == "cut":
            cut(argv[2], argv[3], argv[4:])
        elif argv[1] == "pack":
            pack(argv[2])
        else:
            for name, form, kind, first, count, width in manifest(argv[2]):
                data = read(argv[2], name, count, width)
                print(form, kind, count, hashlib.sha256(data).hexdigest())
    except PackError as e:
        sys.stderr.write("approx_pack.py: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
