"""Runs a command, and once its output has a line containing TEXT, waits
DELAY seconds and sends it SIGNAL, as a user's Ctrl-C would (a fixed
`timeout -s INT` races with a slow start on a loaded machine). Prints the
command's output, then "status N" (a shell's: 128 + signal when one ended
it), and exits 0.

    signal_after_line.py TEXT DELAY SIGNAL -- COMMAND...
"""
import signal
import subprocess
import sys
import threading
import time


def main():
    text, delay, signame = sys.argv[1:4]
    command = sys.argv[sys.argv.index("--") + 1:]
    # SIGINT at its default, as in a terminal (lit's shell ignores it, and
    # an ignored signal stays ignored across exec).
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    started = False

    def send():
        time.sleep(float(delay))
        proc.send_signal(getattr(signal, "SIG" + signame))

    # Bounded: a command that never prints TEXT is ended after 5 minutes.
    killer = threading.Timer(300, proc.kill)
    killer.start()
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        if text in line and not started:
            started = True
            threading.Thread(target=send, daemon=True).start()
    status = proc.wait()
    killer.cancel()
    print("status %d" % (128 - status if status < 0 else status))


if __name__ == "__main__":
    main()
