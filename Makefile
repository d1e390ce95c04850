# Thin wrapper: everything real lives in CMake and scripts/.
.PHONY: all setup build demo test fuzz clean
JOBS ?= $(shell nproc)

all: build

setup:
	@scripts/setup.sh

build: setup
	@echo "== build: the driver, the plugin, the runtimes and the emulator" >&2
	@cmake --build build -j $(JOBS)

demo: build
	@scripts/demo.sh

test: build
	@scripts/test.sh

# Coverage-guided fuzzing (CONTRIBUTING.md): the fuzz twins and libFuzzer
# executables, each run for FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz: build
	@cmake -S . -B build -DWARPSCOPE_FUZZ=ON -DWARPSCOPE_FUZZ_SECONDS=$(FUZZ_SECONDS) >/dev/null
	@cmake --build build -j $(JOBS) --target fuzz

clean:
	rm -rf build
