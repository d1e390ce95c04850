#!/usr/bin/env python3
"""Samples the GPU's power beside benchmark runs (issue 39 item 4).

    power_sampler.py OUT.csv [PERIOD_MS]

Writes one row per period until SIGTERM or SIGINT:
    time_ns,power_mw,power_instant_mw,energy_mj,sm_mhz,mem_mhz,temp_c
time_ns is CLOCK_REALTIME, the clock of the benchmarks' `section_wall_ns`
lines (BENCH_WALLCLOCK=1); energy_mj is NVML's total-energy counter, so a
section's energy is the counter's difference across it. A reading NVML does
not offer is left empty. Uses nvidia-ml-py (`pynvml`), present on the GPU
machines.
"""
import signal
import sys
import time

import pynvml


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    period = (float(argv[2]) if len(argv) == 3 else 10.0) / 1000.0
    pynvml.nvmlInit()
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    instant = getattr(pynvml, "NVML_FI_DEV_POWER_INSTANT", None)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))

    def get(f, *a):
        try:
            return f(*a)
        except pynvml.NVMLError:
            return ""

    def inst():
        if instant is None:
            return ""
        try:
            v = pynvml.nvmlDeviceGetFieldValues(h, [instant])[0]
            return v.value.uiVal if v.nvmlReturn == 0 else ""
        except pynvml.NVMLError:
            return ""

    with open(argv[1], "w") as out:
        out.write("time_ns,power_mw,power_instant_mw,energy_mj,sm_mhz,"
                  "mem_mhz,temp_c\n")
        nxt = time.monotonic()
        while not stop:
            row = (time.time_ns(), get(pynvml.nvmlDeviceGetPowerUsage, h),
                   inst(), get(pynvml.nvmlDeviceGetTotalEnergyConsumption, h),
                   get(pynvml.nvmlDeviceGetClockInfo, h, pynvml.NVML_CLOCK_SM),
                   get(pynvml.nvmlDeviceGetClockInfo, h, pynvml.NVML_CLOCK_MEM),
                   get(pynvml.nvmlDeviceGetTemperature, h,
                       pynvml.NVML_TEMPERATURE_GPU))
            out.write(",".join(str(v) for v in row) + "\n")
            nxt += period
            time.sleep(max(0.0, nxt - time.monotonic()))
    pynvml.nvmlShutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
