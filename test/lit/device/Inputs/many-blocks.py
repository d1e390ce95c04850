#!/usr/bin/env python3
"""Prints an nvptx64 module with one kernel of N blocks in a chain.

usage: many-blocks.py N"""
import sys

n = int(sys.argv[1])
print('target triple = "nvptx64-nvidia-cuda"\n')
print("define ptx_kernel void @chain(ptr addrspace(1) %out) {")
print("b0:")
for i in range(1, n):
    print("  store volatile i32 %d, ptr addrspace(1) %%out" % i)
    print("  br label %%b%d" % i)
    print("b%d:" % i)
print("  ret void\n}")
