#!/usr/bin/env python3
"""A padbench external estimator: reads one JSON request per line on stdin, answers one per line.

    padbench bench --dataset datasets/sample --profiles idemia-high --external "pad=python3 examples/external/pad_estimator.py"

Protocol: first {"describe": true} -> {"outputs": [...], "version": ..., "ranges": ..., "directions": ...};
then {"id": ID, "path": PATH} -> {"id": ID, "outputs": {"score": x}} or {"id": ID, "error": "..."}.
Flush after every answer. Replace `score()` with your model.

This example's score is deliberately trivial (standard library only, so the tests can run it
anywhere): the fraction of distinct byte values in the file's second half, a crude stand-in
for compression detail. It is not a PAD method. For the tests, ids containing "crash", "hang",
"garbage" or "wrongid" make it misbehave on purpose.
"""
import json, sys, time


def score(path):
    with open(path, "rb") as f:
        data = f.read()
    tail = data[len(data) // 2:]
    return len(set(tail)) / 256.0


def main():
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("describe"):
            reply = {"outputs": ["score"], "version": "example-1", "ranges": {"score": [0, 1]}, "directions": {"score": "higher-better"}}
        else:
            sample = request["id"]
            if "crash" in sample:
                sys.exit(3)
            if "hang" in sample:
                time.sleep(60)
            if "garbage" in sample:
                print("this is not json", flush=True)
                continue
            if "wrongid" in sample:
                sample = "someone-else"
            try:
                reply = {"id": sample, "outputs": {"score": score(request["path"])}}
            except OSError as error:
                reply = {"id": sample, "error": f"cannot read {request['path']}: {error.strerror}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
