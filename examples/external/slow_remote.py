#!/usr/bin/env python3
"""A stand-in for a REMOTE model behind a network call: every answer comes 200 ms after its request.

    padbench bench --dataset datasets/sample --profiles basic --concurrency 64 \
      --external "remote=python3 examples/external/slow_remote.py"

Not a PAD method and not a model: the score is a fixed function of the sample id,
score = (CRC-32 of the id's UTF-8 bytes mod 1000) / 999, in [0, 1], the same on every run. What
this program imitates is a remote service's *shape*: each request costs 200 ms of waiting (a round
trip plus a server's queue), almost no local CPU, and many requests can wait at once. It shows how
padbench keeps a slow, parallel service busy: it declares "max_in_flight": 64, so padbench keeps up
to 64 request lines outstanding; this program reads request lines continuously (asyncio), starts a
200 ms timer for each as soon as it arrives, and writes each answer the moment its timer ends:
answers leave in completion order, which nothing ties to request order (padbench matches them by
id). With one fixed latency completion order is mostly arrival order; --jitter-ms J adds a fixed
0..J ms per id (from the same CRC-32) so answers visibly overtake each other. 64 requests in
flight for 200 ms each give at most 320 answers/s.

Protocol: {"describe": true} -> {"outputs": ["score"], "max_in_flight": 64, ...}; a request
{"id": ...} -> {"id": ..., "outputs": {"score": x}} 200 ms later; a {"batch": [request, ...]} line
-> one {"batch": [answer, ...]} line 200 ms later (a remote call carrying several items costs one
round trip). A request without a string id gets {"id": "...", "error": ...}. Standard library only.

Options: --latency-ms (default 200), --jitter-ms (default 0), --max-in-flight (default 64),
--batch B (default 1: declare "batch": B so padbench sends batch lines; without it batch lines are
still answered).
"""
import argparse
import asyncio
import json
import sys
import zlib

VERSION = "slow-remote-1 (stand-in: 200 ms latency, score from the id's CRC-32)"


def score(sample):
    return (zlib.crc32(sample.encode("utf-8")) % 1000) / 999.0


def answer(request):
    sample = request.get("id") if isinstance(request, dict) else None
    if not isinstance(sample, str):
        return {"id": str(sample), "error": "request without a string id"}
    return {"id": sample, "outputs": {"score": score(sample)}}


async def main():
    ap = argparse.ArgumentParser(description="a remote model's latency, not a PAD method")
    ap.add_argument("--latency-ms", type=float, default=200.0)
    ap.add_argument("--jitter-ms", type=int, default=0)
    ap.add_argument("--max-in-flight", type=int, default=64)
    ap.add_argument("--batch", type=int, default=1)
    args = ap.parse_args()
    delay = args.latency_ms / 1000.0
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=64 << 20)  # a batch line of 1024 requests is long
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out = sys.stdout.buffer

    def write(obj):
        out.write((json.dumps(obj) + "\n").encode("utf-8"))
        out.flush()

    def jitter(message):
        first = message["batch"][0] if isinstance(message.get("batch"), list) and message["batch"] else message
        sample = first.get("id") if isinstance(first, dict) else None
        if args.jitter_ms <= 0 or not isinstance(sample, str):
            return 0.0
        return (zlib.crc32(sample.encode("utf-8")) % (args.jitter_ms + 1)) / 1000.0

    async def later(message):
        await asyncio.sleep(delay + jitter(message))
        if "batch" in message:
            batch = message["batch"] if isinstance(message["batch"], list) else []
            write({"batch": [answer(r) for r in batch]})
        else:
            write(answer(message))

    pending = set()
    while True:
        line = await reader.readline()
        if not line:
            break
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            sys.exit("not a JSON line: %.200r" % line)
        if not isinstance(message, dict):
            sys.exit("not a JSON object: %.200r" % line)
        if message.get("describe"):
            reply = {"outputs": ["score"], "version": VERSION, "max_in_flight": args.max_in_flight,
                     "ranges": {"score": [0, 1]}, "directions": {"score": "higher-better"}}
            if args.batch > 1:
                reply["batch"] = args.batch
            write(reply)
            continue
        task = asyncio.ensure_future(later(message))
        pending.add(task)
        task.add_done_callback(pending.discard)
    if pending:  # end of input: answer what is still waiting, then exit
        await asyncio.gather(*pending)


if __name__ == "__main__":
    asyncio.run(main())
