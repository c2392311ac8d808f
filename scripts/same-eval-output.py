#!/usr/bin/env python3
"""Byte-identity check of `padbench eval --scores` between two binaries, on any score files,
including files of millions of rows (scripts/same-output.py holds every member in memory).

    scripts/same-eval-output.py BASE_BINARY NEW_BINARY --work DIR [--big FILE ...] [--hostile]

Runs each case with each binary into its own folder, then compares every file of the run folder
and every member of `results.tar.zst`, byte for byte, with same-output.py's masking rules (times,
tool version, command line, `*_ns` columns). Files and members above 16 MB are compared by their
SHA-256 (they hold no time). Cases: every committed score file (examples/scores, the golden and bob
per-frame fixtures under Tests) with the criteria and options that change the code path, each
`--big` file (run.sh 3b's command), and with `--hostile` generated files: ties, NaN and empty
scores, one class, dev/eval splits, quoted fields, CRLF, a byte order mark, no final newline,
`--aggregate median|min|max`, `--polarity attack-high`, and files that must fail (exit code and
message compared). Exit 0 when all agree.
"""
import argparse
import hashlib
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("same_output", os.path.join(ROOT, "scripts/same-output.py"))
same = importlib.util.module_from_spec(spec)
spec.loader.exec_module(same)
BIG = 16 << 20


def hostile_files(folder):
    """(name, path) of generated files that take the unusual paths of the reader and metrics."""
    rng = random.Random(29)
    files = {}

    def write(name, text, mode="w"):
        path = os.path.join(folder, name)
        with open(path, "w", newline="") as f:
            f.write(text)
        files[name] = path

    rows = ["id,label,species,score,presentation,split,subject"]
    for v in range(400):
        label, species = ("bonafide", "") if v % 3 == 0 else ("attack", ["print", "replay", "mask"][v % 3])
        split = "dev" if v % 4 == 0 else "eval"
        for f in range(rng.randint(1, 6)):
            r = rng.random()
            score = "" if r < 0.03 else ("nan" if r < 0.05 else f"{rng.choice([0.1, 0.2, 0.5, 0.7, 0.9]) + (0.2 if label == 'bonafide' else 0):.2f}")
            rows.append(f"v{v}f{f},{label},{species},{score},v{v},{split},s{v % 17 if label == 'bonafide' else ''}")
    write("ties-nan-splits.csv", "\n".join(rows) + "\n")
    quoted = [rows[0]]
    for r in rows[1:]:
        f = r.split(",")
        if int(f[4][1:]) % 7 == 0:  # a quoted id, and a presentation with a comma and a quote in it
            f[0], f[4] = f'"{f[0]}"', f'"{f[4]}, the ""same"" video"'
        quoted.append(",".join(f))
    write("crlf-bom-quoted.csv", "\ufeff" + "\r\n".join(quoted))
    write("no-final-newline.csv", "\n".join(rows))
    write("one-class.csv", "id,label,species,score\n" + "".join(f"b{i},bonafide,,{i % 5 / 4}\n" for i in range(50)))
    write("attacks-only.csv", "id,label,species,score,presentation\n" + "".join(
        f"a{i},attack,print,{i % 9 / 8},p{i // 3}\n" for i in range(60)))
    flat = ["id,label,species,score"] + [
        f"x{i},{'bonafide' if i % 2 else 'attack'},{'' if i % 2 else 'print'},{rng.gauss(1 if i % 2 else 0, 1):.3f}"
        for i in range(3000)]
    write("flat.csv", "\n".join(flat) + "\n")
    bad = rows[:]
    f = bad[-3].split(",")
    f[4] = "v0" if f[1] == "attack" else "v1"
    bad[-3] = ",".join(f)
    write("presentation-spans-labels.csv", "\n".join(bad) + "\n")
    write("bad-score.csv", "\n".join(rows[:300] + ["zz,attack,print,abc,vz,eval,"] + rows[300:]) + "\n")
    write("duplicate-id.csv", "\n".join(rows + [rows[5]]) + "\n")
    return files


def cases(work, big, hostile):
    out = []
    scores = os.path.join(ROOT, "examples/scores/bob5.txt")
    out.append(("bob5", [scores]))
    out.append(("bob5-eer", [scores, "--criterion", "eer"]))
    for name in ("base.csv", "new.csv"):
        out.append((f"curve-regression-{name}", [os.path.join(ROOT, "examples/scores/curve-regression", name)]))
    golden = os.path.join(ROOT, "Tests/PadMetricsTests/Fixtures/golden")
    for name in sorted(n for n in os.listdir(golden) if n.endswith(".csv")):
        for criterion in ("bpcer@apcer=0.1", "eer"):
            out.append((f"{name}-{criterion}", [os.path.join(golden, name), "--criterion", criterion]))
    frames = os.path.join(ROOT, "Tests/PadBenchTests/Fixtures/presentations")
    for name in sorted(n for n in os.listdir(frames) if n.endswith(".txt")):
        for extra in ([], ["--aggregate", "median"], ["--aggregate", "min"], ["--aggregate", "max"]):
            out.append((f"{name}{''.join(extra)}", [os.path.join(frames, name)] + extra))
    if hostile:
        folder = os.path.join(work, "hostile")
        os.makedirs(folder, exist_ok=True)
        for name, path in hostile_files(folder).items():
            for extra in ([], ["--aggregate", "max"], ["--polarity", "attack-high"], ["--criterion", "eer"],
                          ["--threshold", "0.6"], ["--eer-rule", "pooled"]):
                out.append((f"{name}{''.join(extra)}", [path] + extra))
    for path in big:
        out.append((os.path.basename(path), [path, "--criterion", "bpcer@apcer=0.01", "--timing"]))
    return out


def digest(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def files_of(path, run, binary):
    """Every file of a run folder and every member of its archive, normalised or hashed."""
    found = {}
    for folder, _, names in os.walk(path):
        for file in names:
            full = os.path.join(folder, file)
            relative = os.path.relpath(full, path)
            if file.endswith(".tar.zst"):
                zstd = subprocess.Popen(["zstd", "-dc", full], stdout=subprocess.PIPE)
                with tarfile.open(fileobj=zstd.stdout, mode="r|") as tar:
                    for member in tar:
                        if member.isfile():
                            data = tar.extractfile(member).read()
                            found[relative + ":" + member.name] = norm(relative + ":" + member.name, data, run, binary)
                zstd.wait()
            else:
                with open(full, "rb") as f:
                    found[relative] = norm(relative, f.read(), run, binary)
    return found


def norm(name, data, run, binary):
    return digest(data) if len(data) > BIG else same.normal(name, data, run, binary)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--work", default="/tmp/padbench-same-eval")
    parser.add_argument("--big", nargs="*", default=[])
    parser.add_argument("--hostile", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    differences, compared = [], 0
    for name, arguments in cases(args.work, args.big, args.hostile):
        seen = {}
        for side, binary in (("base", os.path.abspath(args.base)), ("new", os.path.abspath(args.new))):
            run = os.path.join(args.work, side)
            shutil.rmtree(run, ignore_errors=True)
            done = subprocess.run([binary, "eval", "--scores"] + arguments + ["--out", run],
                                  capture_output=True, text=True)
            text = done.stdout + done.stderr
            if "--timing" in arguments:
                text = "\n".join(l for l in text.splitlines() if not l.startswith(("parse ", "metrics ", "write ")))
            seen[side] = (done.returncode, same.masked(text, run, binary),
                          files_of(run, run, binary) if os.path.isdir(run) else {})
        (ca, ta, fa), (cb, tb, fb) = seen["base"], seen["new"]
        if (ca, ta) != (cb, tb):
            differences.append(f"{name}: exit/output differ\n  base: {ca} {ta[:400]}\n  new:  {cb} {tb[:400]}")
        for member in sorted(set(fa) | set(fb)):
            compared += 1
            if fa.get(member) != fb.get(member):
                a, b = fa.get(member, ""), fb.get(member, "")
                differences.append(f"{name}: {member}: {same.first_difference(a, b)}")
        print(f"  {name}: exit {ca}/{cb}, {len(fa)} files", file=sys.stderr)
    for side in ("base", "new"):
        shutil.rmtree(os.path.join(args.work, side), ignore_errors=True)
    print(f"{compared} files and archive members compared")
    return same.report(differences)


if __name__ == "__main__":
    sys.exit(main())
