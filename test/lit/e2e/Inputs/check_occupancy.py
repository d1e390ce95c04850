"""The JSON report's resources and occupancy agree with what the program's
own cudaFuncGetAttributes / cudaOccupancyMaxActiveBlocksPerMultiprocessor
printed ("<name>: regs=R local=L blocks=B"), and with the runtime's answer
recorded in the profile. Usage: check_occupancy.py report.json stdout"""
import json
import re
import sys

report = json.load(open(sys.argv[1]))
said = {}
for line in open(sys.argv[2]):
    m = re.match(r"(\w+): regs=(\d+) local=(\d+) blocks=(\d+)$", line.strip())
    if m:
        said[m.group(1)] = tuple(int(g) for g in m.groups()[1:])
assert set(said) == {"pressure", "capped"}, said

seen = set()
for k in report["kernels"]:
    name = k["name"].split("(")[0]
    if name not in said:
        continue
    seen.add(name)
    regs, local, blocks = said[name]
    r = k["resources"]
    assert r["source"] == "ptxas", r
    assert r["registers_per_thread"] == regs, (name, r, regs)
    assert r["local_bytes_per_thread"] == local, (name, r, local)
    assert isinstance(r["spill_store_bytes"], int), r
    assert isinstance(r["spill_load_bytes"], int), r
    assert (r["spill_store_bytes"] > 0) == (name == "capped"), r
    (occ,) = k["occupancy"]
    assert occ["blocks_per_sm"] == blocks, (name, occ, blocks)
    assert occ["runtime_blocks_per_sm"] == blocks, (name, occ, blocks)
    threads = occ["block"][0] * occ["block"][1] * occ["block"][2]
    assert occ["warps_per_sm"] == blocks * ((threads + 31) // 32), occ
    assert occ["max_warps_per_sm"] == 64, occ
    assert occ["theoretical_occupancy"] == occ["warps_per_sm"] / 64, occ
    assert "registers" in occ["limited_by"], occ
assert seen == set(said), seen
print("occupancy ok")
