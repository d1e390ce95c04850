"""Runs the README's commands (test/lit/driver/readme.test).

    readme.py README BUILDDIR SCRATCH CUDA_HOME

Every fenced block that follows a `<!-- readme-test: KIND -->` line runs,
in README order, in SCRATCH, where build/ is BUILDDIR and app.cu is
examples/divergence.cu:
  sh             the block runs in bash with -e -u -o pipefail (a failing
                 command fails the test), after the variable assignments of
                 the sh blocks before it;
  config-cflags  the block is what `warpscope config --cflags` prints, with
                 the build tree in /src/build and CUDA in /usr/local/cuda;
  cmake          the block is a project's CMakeLists.txt: its comment's
                 `cmake -S . -B build ...` line configures it (P: the prefix
                 an sh block installed into SCRATCH/P), then it is built and
                 its app runs under P/bin/warpscope run, leaving a profile.
Prints one line per block; exits 1 at the first that fails, naming it.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

MARKER = re.compile(r"^<!-- readme-test: (\S+) -->$")
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=\S+$")


def blocks(readme):
    """(kind, first line number, text) of each marked fenced block."""
    lines = open(readme).read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit("readme.py: %s:%d: a readme-test marker not followed by "
                     "a fenced block" % (readme, i + 1))
        end = i + 2
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        out.append((m.group(1), i + 3, "\n".join(lines[i + 2:end]) + "\n"))
        i = end + 1
    return out


def fail(where, what, output=""):
    sys.stdout.write(output)
    print("FAIL README.md:%d: %s" % (where, what))
    sys.exit(1)


def run_sh(text, line, assignments, scratch):
    script = "set -euo pipefail\n" + "".join(a + "\n" for a in assignments)
    script += text
    p = subprocess.run(["bash", "-x", "-c", script], cwd=scratch,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode:
        fail(line, "the sh block exited %d" % p.returncode, p.stdout)
    assignments += [l for l in text.split("\n") if ASSIGNMENT.match(l)]


def check_cflags(text, line, builddir, cuda, scratch):
    got = subprocess.run([os.path.join(scratch, "build", "bin", "warpscope"),
                          "config", "--cflags"], stdout=subprocess.PIPE,
                         text=True, check=True).stdout.strip()
    got = got.replace(os.path.realpath(builddir), "/src/build")
    got = got.replace(cuda, "/usr/local/cuda")
    if got != text.strip():
        fail(line, "warpscope config --cflags prints\n  %s\nnot\n  %s"
             % (got, text.strip()))


def run_cmake(text, line, index, scratch):
    prefix = os.path.join(scratch, "P")
    if not os.path.isdir(prefix):
        fail(line, "no sh block before it installed into P")
    configure = [l.strip("# ").strip() for l in text.split("\n")
                 if l.lstrip("# ").startswith("cmake -S . -B build")]
    if len(configure) != 1:
        fail(line, "the cmake block names no `cmake -S . -B build` line")
    project = os.path.join(scratch, "cmake-%d" % index)
    os.makedirs(project)
    open(os.path.join(project, "CMakeLists.txt"), "w").write(text)
    shutil.copy(os.path.join(scratch, "app.cu"), project)
    words = [re.sub(r"(?<![\w/])P(?=/|$)", prefix, w)
             for w in shlex.split(configure[0])]
    steps = [words, ["cmake", "--build", "build"],
             [os.path.join(prefix, "bin", "warpscope"), "run", "--emulate",
              "-o", "prof", "--", "./build/app"]]
    for step in steps:
        p = subprocess.run(step, cwd=project, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            fail(line, "`%s` exited %d" % (" ".join(step), p.returncode),
                 p.stdout)
    if not any(f.startswith("profile-") for f in
               os.listdir(os.path.join(project, "prof"))):
        fail(line, "the app built by the cmake block left no profile")


def main():
    readme, builddir, scratch, cuda = sys.argv[1:5]
    source = os.path.dirname(os.path.abspath(readme))
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    os.symlink(os.path.abspath(builddir), os.path.join(scratch, "build"))
    shutil.copy(os.path.join(source, "examples", "divergence.cu"),
                os.path.join(scratch, "app.cu"))
    assignments = []
    found = blocks(readme)
    if not found:
        sys.exit("readme.py: %s has no readme-test block" % readme)
    for index, (kind, line, text) in enumerate(found):
        if kind == "sh":
            run_sh(text, line, assignments, scratch)
        elif kind == "config-cflags":
            check_cflags(text, line, builddir, cuda, scratch)
        elif kind == "cmake":
            run_cmake(text, line, index, scratch)
        else:
            fail(line, "unknown readme-test kind '%s'" % kind)
        print("ok README.md:%d: %s block" % (line, kind))


if __name__ == "__main__":
    main()
