#!/usr/bin/env python3
"""Benchmark program: a fixed cost per CALL, whatever its batch size (a GPU's shape).

    python3 Benchmarks/external/fixed_latency.py --latency-ms 50 --batch 32

Declares {"outputs": ["score"], "batch": B} (B > 1; with --batch 1 no "batch" field: one request
per line, the plain protocol) and answers each line, one request or a {"batch": [...]} of up to B,
after sleeping --latency-ms (default 50) ms: a GPU run costs about the same for 1 or 32 items, so
items/s grows with the batch size. One call at a time (max_in_flight 1): the next line is read
when the previous answer is written, as a single device would serve them. Does not read the
images; score = (CRC-32 of the id) mod 1000 / 999, a stand-in, not a PAD method.
At 50 ms per call: at most 20 images/s with batch 1, 640 with batch 32. Standard library only.
"""
import argparse
import json
import sys
import time
import zlib


def answer(request):
    sample = request["id"]
    return {"id": sample, "outputs": {"score": (zlib.crc32(sample.encode("utf-8")) % 1000) / 999.0}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency-ms", type=float, default=50.0)
    ap.add_argument("--batch", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.batch <= 1024:
        sys.exit("--batch must be 1 to 1024")
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("describe"):
            reply = {"outputs": ["score"], "version": "fixed-latency-1 (%g ms per call)" % args.latency_ms,
                     "ranges": {"score": [0, 1]}, "directions": {"score": "higher-better"}}
            if args.batch > 1:
                reply["batch"] = args.batch
        else:
            time.sleep(args.latency_ms / 1000.0)
            if "batch" in message:
                reply = {"batch": [answer(r) for r in message["batch"]]}
            else:
                reply = answer(message)
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
