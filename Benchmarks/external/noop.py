#!/usr/bin/env python3
"""Benchmark program: the cheapest possible external estimator (measures padbench's side).

    python3 Benchmarks/external/noop.py [--input path|rgb24] [--cpu-log FILE]

Declares {"outputs": ["score"], "max_in_flight": 1} (plus "input": "rgb24" with --input rgb24, so
padbench writes each image's decoded pixels for it) and answers every request at once with score 0,
without opening the image: whatever CPU a run spends beyond this program's is padbench's (writing a
video frame's PPM, the pixels file, the JSON lines, the pipes). A {"batch": [...]} line gets one
{"batch": [...]} answer line. Standard library only.

--cpu-log FILE appends one line "noop <pid> <user_s> <system_s> <requests>" (this process's own
CPU time, getrusage(RUSAGE_SELF), startup included, and the requests it received) when its input
ends or it gets SIGTERM (padbench closes the input and sends SIGTERM at the end of a run), so
Benchmarks/external/run_section.sh can subtract the programs' CPU from padbench's.
"""
import argparse
import json
import os
import resource
import signal
import sys

logged = False
requests = 0  # requests answered, for --cpu-log


def log_cpu(path, tag="noop"):
    global logged
    if path and not logged:
        logged = True
        t = resource.getrusage(resource.RUSAGE_SELF)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(fd, ("%s %d %.6f %.6f %d\n" % (tag, os.getpid(), t.ru_utime, t.ru_stime, requests)).encode())
        os.close(fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--input", choices=["path", "rgb24"], default="path")
    ap.add_argument("--cpu-log")
    args = ap.parse_args()

    def on_term(signum, frame):
        log_cpu(args.cpu_log)
        os._exit(0)

    signal.signal(signal.SIGTERM, on_term)
    out = sys.stdout
    global requests
    for line in sys.stdin:
        message = json.loads(line)
        if not message.get("describe"):
            requests += len(message["batch"]) if "batch" in message else 1
        if message.get("describe"):
            reply = {"outputs": ["score"], "version": "noop-1", "max_in_flight": 1,
                     "ranges": {"score": [0, 1]}, "directions": {"score": "higher-better"}}
            if args.input == "rgb24":
                reply["input"] = "rgb24"
        elif "batch" in message:
            reply = {"batch": [{"id": r["id"], "outputs": {"score": 0}} for r in message["batch"]]}
        else:
            reply = {"id": message["id"], "outputs": {"score": 0}}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    log_cpu(args.cpu_log)


if __name__ == "__main__":
    main()
