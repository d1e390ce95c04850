# WarpScope lit configuration. Plugin, tools and compilers are reached only
# through substitutions, so tests never hard-code paths.
import os
import shutil
import subprocess
import lit.formats

config.name = "WarpScope"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".cu", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.warpscope_obj_root, "test", "lit")
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "lit.local.cfg"]

tools = config.llvm_tools_dir
bindir = os.path.join(config.warpscope_obj_root, "bin")
libdir = os.path.join(config.warpscope_obj_root, "lib")
plugin = os.path.join(libdir, "libWarpScope.so")
cuda_flags = ("-x cuda --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version "
              "--cuda-path=%s" % config.cuda_home)

config.environment["PATH"] = os.pathsep.join([tools, config.environment.get("PATH", "")])
# Databases go to the test's own directory, never to a shared temp dir.
config.environment.pop("WARPSCOPE_DB_DIR", None)
# Where scripts/setup.sh installed the SARIF Multitool, found before
# XDG_CACHE_HOME changes below.
scripts = os.path.join(config.warpscope_src_root, "scripts")
config.environment["WARPSCOPE_TOOLS_DIR"] = subprocess.run(
    [os.path.join(scripts, "sarif-multitool.sh"), "--tools-dir"],
    capture_output=True, text=True).stdout.strip()
# The emulator caches ptxas's reports (docs/emulator.md) here, not in ~/.cache.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "cache")
config.environment.pop("WARPSCOPE_PTXAS", None)

config.substitutions += [
    ("%opt-ws", "%s/opt -load-pass-plugin=%s" % (tools, plugin)),
    ("%plugin", plugin),
    ("%clang-cuda", "%s %s" % (config.clang, cuda_flags)),
    ("%clangxx", config.clang),
    ("%warpscope", os.path.join(bindir, "warpscope")),
    ("%ptxas", config.ptxas or "false"),
    ("%cuda_home", config.cuda_home),
    ("%python", "python3"),
    ("%llvm-profdata", os.path.join(tools, "llvm-profdata")),
    ("%builddir", config.warpscope_obj_root),
    # examples/divergence.cu built once with `warpscope config --cflags`
    # and -O2 (test/CMakeLists.txt): copy it, never rebuild it per test.
    ("%demo-bin", os.path.join(config.warpscope_obj_root, "test", "fixtures", "demo")),
    # Other programs several tests run, built the same way
    # (warpscope_test_program in test/CMakeLists.txt): %fixtures/NAME.
    ("%fixtures", os.path.join(config.warpscope_obj_root, "test", "fixtures")),
    ("%validate-sarif", "python3 " + os.path.join(scripts, "validate-sarif.py")),
    ("%dbdump", "python3 " + os.path.join(config.test_source_root, "Inputs", "dbdump.py")),
]

# The benchmark suite's builds (benchmarks/CMakeLists.txt), for tests that
# compare them with measurements on a GPU.
benchdir = os.path.join(config.warpscope_obj_root, "benchmarks")
config.substitutions.append(("%benchdir", benchdir))
config.substitutions.append(
    ("%benchsrc", os.path.join(config.warpscope_src_root, "benchmarks")))
if os.path.exists(os.path.join(benchdir, "reduction.inst")):
    config.available_features.add("benchmarks")

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
if os.path.exists(os.path.join(libdir, "emu", "libcudart.so.13")):
    config.available_features.add("emulator")
# warpscope train and predict need XGBoost's library (libxgboost0) when
# they run, not to build: a train of nothing says whether it loads.
ws = os.path.join(bindir, "warpscope")
if os.path.exists(ws):
    probe = subprocess.run([ws, "train", "/nonexistent.csv", "-o", "/dev/null"],
                           capture_output=True, text=True)
    if "XGBoost" not in probe.stderr:
        config.available_features.add("xgboost")
# The prediction evaluation's baseline (benchmarks/predict/
# mangrove_baseline.py) needs Debian's scikit-learn (setup.sh --test).
if subprocess.run(["/usr/bin/python3", "-c", "import sklearn"],
                  capture_output=True).returncode == 0:
    config.available_features.add("sklearn")
# A real MPI (Debian's openmpi-bin and libopenmpi-dev, scripts/setup.sh
# --test): the cluster tests run a job of 4 ranks with it. As root Open MPI
# needs leave to run, and 4 ranks on a machine with fewer cores need
# --oversubscribe.
if shutil.which("mpirun") and shutil.which("mpicxx"):
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun", "mpirun --allow-run-as-root --oversubscribe"))
chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(
        ("%chromium", chromium + " --headless --no-sandbox --disable-gpu "
         "--disable-quic --no-first-run --disable-background-networking "
         "--disable-component-update --disable-sync --user-data-dir=%t.profile"))
# A GPU is present only where nvidia-smi lists one; CI has none.
smi = shutil.which("nvidia-smi")
if smi and subprocess.run([smi, "-L"], capture_output=True).returncode == 0:
    config.available_features.add("gpu")
