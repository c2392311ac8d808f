#!/usr/bin/env python3
"""Driver: a program's OWN throughput and CPU per image, without padbench, for comparison.

    python3 Benchmarks/external/own_speed.py PROGRAM [ARGS...] --images DIR --n N [--processes P]
    python3 Benchmarks/external/own_speed.py --images DIR --n N [--processes P] -- PROGRAM [ARGS...]

PROGRAM is run as padbench runs an external estimator (`/bin/sh -c "exec PROGRAM ARGS"`, so a
single quoted command string works too), P copies of it (default 1). Each gets {"describe": true};
then N requests for DIR's images (DIR/manifest.csv's still-image rows, in manifest order, with
"face": [x, y, w, h] when the row has a box; without a manifest every .jpg/.jpeg/.png/.ppm under
DIR, sorted), repeated in turn until N, ids "own-<k>", are shared among the copies from one queue.
Each copy is kept as busy as its describe allows: up to max_in_flight lines outstanding, each line
a full {"batch": [...]} of `batch` requests when batch > 1 (the last one may be short). A program
declaring "input": "rgb24" also gets "pixels": every distinct image is converted once, before the
clock starts, to a binary PPM (ffmpeg -pix_fmt rgb24) in a temporary folder, removed at the end;
"faces": "all" adds "faces": [[x, y, w, h, 1.0]]. Answers are matched by id, in any order.
Standard library only (ffmpeg for rgb24 programs).

Prints one JSON line:
  images_per_s        N / seconds from the first request to the last answer (programs started
                      and described before the clock starts: the program's own steady speed);
  images_per_s_total  N / seconds from the first spawn to the last exit (startup included; the
                      PPM conversion for rgb24 programs left out);
  cpu_s_per_image     the copies' CPU time (utime + stime from /proc/<pid>/stat, theirs and their
                      waited children's) between describe and the last answer, / N;
  cpu_s_per_image_total  resource.getrusage(RUSAGE_CHILDREN) after every copy exited (startup,
                      imports and model loading included; ffmpeg's conversions left out), / N;
  errors, processes, max_in_flight, batch, n.
Exit status 1 when an answer is missing or malformed.
"""
import collections
import csv
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

OURS = {"--images": "images", "--n": "n", "--processes": "processes"}


def parse(argv):
    opts = {"images": None, "n": None, "processes": "1"}
    if "--" in argv:
        cut = argv.index("--")
        head, program = argv[:cut], argv[cut + 1:]
    else:
        head, program = argv, []
    rest, i = [], 0
    while i < len(head):
        a = head[i]
        key, _, value = a.partition("=")
        if key in OURS:
            if not value:
                if i + 1 >= len(head):
                    sys.exit("%s needs a value" % a)
                value = head[i + 1]
                i += 1
            opts[OURS[key]] = value
        else:
            rest.append(a)
        i += 1
    program = rest + program
    if not program or opts["images"] is None or opts["n"] is None:
        sys.exit(__doc__.split("\n\n")[1])
    command = program[0] if len(program) == 1 else shlex.join(program)
    return command, opts["images"], int(opts["n"]), int(opts["processes"])


def images_of(folder):
    """[(path, box or None)] of the still images of DIR."""
    manifest = os.path.join(folder, "manifest.csv")
    stills = (".jpg", ".jpeg", ".png", ".ppm", ".bmp")
    out = []
    if os.path.exists(manifest):
        with open(manifest, newline="") as f:
            for row in csv.DictReader(f):
                if not row["path"].lower().endswith(stills):
                    continue
                box = None
                if all(row.get(k) for k in "xywh"):
                    box = [float(row[k]) for k in "xywh"]
                out.append((os.path.abspath(os.path.join(folder, row["path"])), box))
    else:
        for root, _, files in os.walk(folder):
            out += [(os.path.abspath(os.path.join(root, f)), None) for f in files if f.lower().endswith(stills)]
        out.sort()
    if not out:
        sys.exit("no still images in %s" % folder)
    return out


def to_ppm(path, folder, k):
    """(ppm path, header length, width, height) of the image decoded to RGB by ffmpeg."""
    ppm = os.path.join(folder, "%06d.ppm" % k)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", path, "-pix_fmt", "rgb24",
                    "-f", "image2", "-c:v", "ppm", ppm], check=True)
    with open(ppm, "rb") as f:
        head = f.read(64)
    parts = head.split(maxsplit=4)   # P6 W H 255 <one whitespace> data (ffmpeg writes no comments)
    width, height = int(parts[1]), int(parts[2])
    offset = len(b" ".join(parts[:4])) + 1
    return ppm, offset, width, height


def cpu_of(pid):
    """utime + stime + cutime + cstime of a live process, seconds (None when gone)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(v) for v in fields[11:15]) / ticks


class Copy:
    def __init__(self, command):
        self.proc = subprocess.Popen(["/bin/sh", "-c", "exec " + command], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0)
        self.proc.stdin.write(b'{"describe": true}\n')
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit("the program ended before answering describe: %s" % command)
        self.describe = json.loads(line)
        self.max_in_flight = int(self.describe.get("max_in_flight", 1))
        self.batch = int(self.describe.get("batch", 1))


def main():
    command, folder, n, processes = parse(sys.argv[1:])
    images = images_of(folder)
    t_spawn = time.perf_counter()
    copies = [Copy(command) for _ in range(processes)]
    d = copies[0].describe
    tmp = None
    pixels = {}
    convert_s, convert_cpu = 0.0, 0.0
    if d.get("input") == "rgb24":  # untimed: neither the wall time nor the CPU of ffmpeg is counted
        c0, u0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        tmp = tempfile.mkdtemp(prefix="own-speed-")
        for k, (path, _) in enumerate(images[:n]):
            pixels[path] = to_ppm(path, tmp, k)
        u1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        convert_s = time.perf_counter() - c0
        convert_cpu = (u1.ru_utime + u1.ru_stime) - (u0.ru_utime + u0.ru_stime)
    queue = collections.deque()
    expected = set()
    for k in range(n):
        path, box = images[k % len(images)]
        request = {"id": "own-%d" % k, "path": path}
        if box is not None:
            request["face"] = box
            if d.get("faces") == "all":
                request["faces"] = [box + [1.0]]
        if path in pixels:
            ppm, offset, width, height = pixels[path]
            request["pixels"] = {"path": ppm, "offset": offset, "width": width, "height": height,
                                 "stride": 3 * width, "format": "rgb24"}
        queue.append(request)
        expected.add(request["id"])
    lock = threading.Lock()
    answers = {}
    problems = []
    last_answer = [0.0]

    def serve(copy):
        slots = threading.Semaphore(copy.max_in_flight)
        answered = threading.Condition()
        counts = {"sent": 0, "got": 0}

        def reader():
            for raw in copy.proc.stdout:
                message = json.loads(raw)
                items = message["batch"] if "batch" in message else [message]
                now = time.perf_counter()
                with lock:
                    for item in items:
                        if item.get("id") not in expected or item["id"] in answers:
                            problems.append("unexpected or repeated answer %.80r" % item)
                        answers[item.get("id")] = item
                    last_answer[0] = max(last_answer[0], now)
                with answered:
                    counts["got"] += 1
                    answered.notify_all()
                slots.release()

        threading.Thread(target=reader, daemon=True).start()
        while True:
            slots.acquire()
            with lock:
                line = [queue.popleft() for _ in range(min(copy.batch, len(queue)))]
            if not line:
                break
            with answered:
                counts["sent"] += 1
            body = {"batch": line} if copy.batch > 1 else line[0]
            copy.proc.stdin.write((json.dumps(body) + "\n").encode())
        with answered:  # every line answered (the reader ends at EOF, after stdin is closed)
            while counts["got"] < counts["sent"] and copy.proc.poll() is None:
                answered.wait(1.0)

    before = [cpu_of(c.proc.pid) for c in copies]
    t0 = time.perf_counter()
    threads = [threading.Thread(target=serve, args=(c,)) for c in copies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t1 = last_answer[0] or time.perf_counter()
    after = [cpu_of(c.proc.pid) for c in copies]
    for c in copies:
        c.proc.stdin.close()
    for c in copies:
        c.proc.wait()
    t_exit = time.perf_counter()
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    steady = sum(a - b for a, b in zip(after, before) if a is not None and b is not None)
    missing = len(expected - set(answers))
    errors = sum(1 for a in answers.values() if "error" in a)
    result = {"program": command, "n": n, "processes": processes,
              "max_in_flight": copies[0].max_in_flight, "batch": copies[0].batch, "input": d.get("input", "path"),
              "images_per_s": round(n / (t1 - t0), 2), "seconds": round(t1 - t0, 3),
              "images_per_s_total": round(n / (t_exit - t_spawn - convert_s), 2),
              "seconds_total": round(t_exit - t_spawn - convert_s, 3),
              "cpu_s_per_image": round(steady / n, 6),
              "cpu_s_per_image_total": round((usage.ru_utime + usage.ru_stime - convert_cpu) / n, 6),
              "errors": errors, "missing": missing}
    if problems:
        result["problems"] = problems[:3]
    print(json.dumps(result))
    return 1 if missing or problems else 0


if __name__ == "__main__":
    sys.exit(main())
