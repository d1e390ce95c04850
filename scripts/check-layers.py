#!/usr/bin/env python3
"""Checks WarpScope's layer rule (docs/architecture.md).

Layers, lowest first: the contract (include/warpscope/ABI) <- runtime <-
passes <- driver. A file may include public headers (include/warpscope/<Lib>/)
of its own layer or lower ones, and private headers only from its own folder
(or, for a tests/ or fuzz/ folder, the library folder above it). The contract
and the runtime never include LLVM. No CMakeLists.txt compiles a source file
from another component's folder.

Usage: check-layers.py [--root DIR]; prints one line per violation and exits
1 if there is any.
"""
import argparse
import os
import re
import sys

# Public header folders under include/warpscope and the layer they belong to.
LIBRARY_LAYER = {
    "ABI": 0,       # counter layout, descriptors, schema tags, file names
    "Emu": 1,       # the emulator core, as the stand-in cudart sees it
    "Fatbin": 1,    # fatbin decoder (the emulator and the tools)
    "Support": 1,   # shared by everything in the user's process
    "PTX": 2,       # compile-time PTX listings, histograms, classes
    "Database": 2,  # program database records, reader and writer
}
LAYER_NAME = ["contract", "runtime", "passes", "driver"]
# Source folders and their layer.
FOLDER_LAYER = {"runtime": 1, "passes": 2, "driver": 3}
# Test-only folders may reach below a library folder's include root.
TEST_DIRS = {"tests", "fuzz"}
# No exceptions: fuzzers link fuzz-built twins of other folders' libraries
# (cmake/WarpScopeFuzz.cmake) instead of compiling their sources.
CMAKE_EXEMPT = set()

# Third-party headers some files spell with quotes.
EXTERNAL = ("gtest/", "gmock/", "nlohmann/", "cuda", "cupti")

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCE_REF = re.compile(r"\$\{CMAKE_SOURCE_DIR\}/([\w./-]+\.(?:cpp|cc|c))\b")
# Other ways to reach another folder's sources: a target's SOURCE_DIR, or a
# path climbing out of the folder.
FOREIGN_DIR = re.compile(r"get_target_property\(\s*\w+\s+[\w-]+\s+SOURCE_DIR\s*\)"
                         r"|\.\./[\w./-]*\.(?:cpp|cc|c)\b")


def layer_of(rel):
    parts = rel.split("/")
    if parts[:2] == ["include", "warpscope"] and len(parts) > 3:
        return LIBRARY_LAYER.get(parts[2])
    return FOLDER_LAYER.get(parts[0])


def check_source(root, rel, errors):
    layer = layer_of(rel)
    if layer is None:
        if rel.startswith("include/warpscope/"):
            errors.append(f"{rel}: header outside include/warpscope/<Lib>/ "
                          f"or in an unknown library; add the library to "
                          f"scripts/check-layers.py and docs/architecture.md")
        return
    here = os.path.dirname(os.path.join(root, rel))
    with open(os.path.join(root, rel), errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            quote, path = m.groups()
            where = f"{rel}:{n}"
            if path.startswith(("llvm/", "llvm-c/", "clang/")):
                if layer <= 1:
                    errors.append(f"{where}: {LAYER_NAME[layer]} code includes "
                                  f"LLVM ({path}); it is loaded into user "
                                  f"programs and must not need LLVM")
                continue
            if quote == "<" or path.startswith(EXTERNAL):
                continue
            if path.startswith("warpscope/"):
                lib = path.split("/")[1] if path.count("/") >= 2 else None
                if lib not in LIBRARY_LAYER:
                    errors.append(f"{where}: '{path}' is not in a known "
                                  f"library (include/warpscope/<Lib>/)")
                elif LIBRARY_LAYER[lib] > layer:
                    errors.append(
                        f"{where}: {LAYER_NAME[layer]} code includes '{path}' "
                        f"of the {LAYER_NAME[LIBRARY_LAYER[lib]]} layer above "
                        f"it; move the shared part down a layer")
                continue
            candidates = [here]
            if os.path.basename(here) in TEST_DIRS:
                candidates.append(os.path.dirname(here))
            if not any(os.path.exists(os.path.join(d, path)) for d in candidates):
                errors.append(f"{where}: '{path}' is not beside this file; "
                              f"include another library's public header as "
                              f"\"warpscope/<Lib>/...\"")


def check_cmake(root, rel, errors):
    if rel in CMAKE_EXEMPT:
        return
    own = os.path.dirname(rel)
    with open(os.path.join(root, rel)) as f:
        for n, line in enumerate(f, 1):
            for src in SOURCE_REF.findall(line):
                if own and (src + "/").startswith(own + "/"):
                    continue
                errors.append(f"{rel}:{n}: compiles '{src}' from another "
                              f"component's folder; link its library instead")
            if FOREIGN_DIR.search(line):
                errors.append(f"{rel}:{n}: reaches into another component's "
                              f"folder for sources; link its library (or its "
                              f"fuzz archive, cmake/WarpScopeFuzz.cmake) instead")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    root = os.path.abspath(ap.parse_args().root)
    errors = []
    for top in ["include", "runtime", "passes", "driver", "test", "benchmarks", "."]:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            if top == ".":
                dirnames[:] = []  # only the top-level CMakeLists.txt
            dirnames[:] = [d for d in dirnames if d not in ("build", "fixtures")
                           and not d.startswith(".")]
            for name in filenames:
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                if name == "CMakeLists.txt":
                    check_cmake(root, rel, errors)
                elif top in ("include", "runtime", "passes", "driver") and \
                        name.endswith((".h", ".cpp", ".inc", ".def")):
                    check_source(root, rel, errors)
    for e in errors:
        print(e)
    if errors:
        print(f"check-layers: {len(errors)} violation(s) of the layer rule "
              f"(docs/architecture.md)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
