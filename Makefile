# Thin wrapper: everything real lives in CMake and scripts/.
.PHONY: all setup build demo test clean
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

clean:
	rm -rf build
