#!/usr/bin/env python3
"""Byte-identity check between two padbench binaries (a refactor must not change any output).

    scripts/same-output.py BASE_BINARY NEW_BINARY [--dataset datasets/sample] [--work DIR] [--quick]

Runs the same commands with each binary, each in its own folder, on the committed sample and the
committed examples: bench (three profiles), bench as three shards and merge, eval --archive,
eval --scores (the bob example, then a generic file with dev and eval splits), import, folds. Then
compares every file each command wrote, and the archives' members, byte for byte, after taking out
only what must differ between two runs: times (timing.csv's figures, `*_ns` columns, the manifest's
times, cold starts, the report's latency section and start/wall line, compare's timing rows), the tool version and the
command line (the binaries' paths). Also compares each command's exit code and standard output
(times masked). Exit 0 when all agree; 1 with the first differing lines of each file otherwise.

--quick measures with `--estimators quality` only (about a minute with a release build); the full
run measures the profiles' estimators (face, landmarks, ...).
"""
import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|wall [0-9.]+ s|\b\d+(\.\d+)? ?(s|ms|us|µs|images/s)\b")
# The terminal's timing table: from its header line to the blank line after it.
STEP_TABLE = re.compile(r"^step +count .*?\n\n", re.S | re.M)
# compare's latency rows: verdict, quantiles and ratios of two runs' measured times.
COMPARE_TIMING = re.compile(r"^\S+ +(timing \S+ \S+) .*$", re.M)
VERSION = re.compile(r"padbench \d+\.\d+\.\d+\S*")


def commands(dataset, quick, generic):
    """(name, arguments) in order; `{run}` is the binary's work folder."""
    estimators = ["--estimators", "quality"] if quick else []
    profiles = "basic" if quick else "basic,luna-id-default,aware-capture"
    bench = ["bench", "--dataset", dataset, "--profiles", profiles, "--quiet"] + estimators
    steps = [("bench", bench + ["--out", "{run}/bench"])]
    for k in (1, 2, 3):
        steps.append((f"shard{k}", bench + ["--shard", f"{k}/3", "--out", f"{{run}}/s{k}"]))
    steps += [
        ("merge", ["merge", "{run}/s1/results.tar.zst", "{run}/s2/results.tar.zst", "{run}/s3/results.tar.zst",
                   "--out", "{run}/merged"]),
        ("eval-archive", ["eval", "--archive", "{run}/bench/results.tar.zst", "--profiles", "basic",
                          "--out", "{run}/eval-archive"]),
        ("eval-bob", ["eval", "--scores", os.path.join(ROOT, "examples/scores/bob5.txt"),
                      "--out", "{run}/eval-bob"]),
        ("eval-generic", ["eval", "--scores", generic, "--format", "generic", "--criterion", "bpcer@apcer=0.1",
                          "--out", "{run}/eval-generic"]),
        ("import", ["import", "idemia-status", "--dataset", dataset, "--input",
                    os.path.join(ROOT, "examples/imports/idemia-status.csv"), "--profiles", "idemia-status",
                    "--out", "{run}/import"]),
        ("folds", ["folds", "{run}/bench", "{run}/merged", "--out", "{run}/folds"]),
        ("compare", ["compare", "{run}/bench", "{run}/merged"]),
    ]
    return steps


def write_generic(path):
    """A generic score file with subjects, dev and eval (deterministic, no randomness)."""
    rows = ["id,label,species,split,subject,score"]
    for i in range(60):
        split = "dev" if i % 2 else "eval"
        label, species = ("bonafide", "") if i % 3 == 0 else ("attack", "print" if i % 3 == 1 else "replay")
        score = ((i * 37) % 101) / 100 + (0.3 if label == "bonafide" else 0)
        rows.append(f"s{i},{label},{species},{split},p{i % 7},{score:.2f}")
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


def run_all(binary, run, dataset, quick, generic):
    if os.path.exists(run):
        shutil.rmtree(run)
    os.makedirs(run)
    outputs = {}
    for name, arguments in commands(dataset, quick, generic):
        argv = [binary] + [a.replace("{run}", run) for a in arguments]
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        stdout = STEP_TABLE.sub("<steps>\n", done.stdout)
        if name == "compare":
            # Its columns are as wide as the widest figure, a time's too: spacing and rules aside.
            stdout = re.sub(r"([ -])\1+", r"\1", COMPARE_TIMING.sub(r"\1 <times>", stdout))
        outputs[name] = (done.returncode, masked(stdout, run, binary))
        print(f"  {os.path.basename(run)} {name}: exit {done.returncode}", file=sys.stderr)
    return outputs


def masked(text, run, binary):
    """Text without what two runs of the same data may not share: paths, times, the version."""
    return TIME.sub("<time>", VERSION.sub("<version>", text.replace(binary, "<padbench>").replace(run, "<run>")))


def normal_json(value):
    """Drops what differs between two runs of the same data: times, tool, machine, cold starts."""
    if isinstance(value, dict):
        return {k: normal_json(v) for k, v in value.items()
                if k not in ("times", "tool", "machine") and not k.endswith("Nanoseconds")}
    if isinstance(value, list):
        return [normal_json(v) for v in value]
    return value


def normal_csv(text, name):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return text
    if name == "timing.csv":
        return "\n".join(",".join(r[:2]) for r in rows)
    keep = [i for i, column in enumerate(rows[0]) if not column.endswith("_ns")]
    return "\n".join(",".join(r[i] for i in keep if i < len(r)) for r in rows)


def normal_html(text):
    text = re.sub(r"<h2>Latency</h2>.*?(?=<h2>)", "<latency/>", text, flags=re.S)
    return TIME.sub("<time>", VERSION.sub("<version>", text))


def normal(name, data, run, binary):
    base = os.path.basename(name.split(":")[-1])
    if base.endswith(".json"):
        value = json.loads(data)
        if base == "manifest.json" and isinstance(value, dict):
            # The column layout (estimator, output, variant per samples.csv column) is new in the
            # manifest; it is checked against samples.csv's header by every reader, not here.
            value.pop("columns", None)
        return json.dumps(normal_json(value), sort_keys=True, indent=1)
    if base.endswith(".csv"):
        return normal_csv(data.decode("utf-8"), base).replace(run, "<run>")
    if base.endswith(".html"):
        return masked(normal_html(data.decode("utf-8")), run, binary)
    return data


def members(path):
    """Every file under a run folder, archives opened into their members."""
    found = {}
    for folder, _, files in os.walk(path):
        for file in files:
            full = os.path.join(folder, file)
            relative = os.path.relpath(full, path)
            if file.endswith(".tar.zst"):
                raw = subprocess.run(["zstd", "-dc", full], capture_output=True, check=True).stdout
                with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
                    for member in tar.getmembers():
                        if member.isfile():
                            found[relative + ":" + member.name] = tar.extractfile(member).read()
            else:
                with open(full, "rb") as f:
                    found[relative] = f.read()
    return found


def first_difference(a, b):
    a_lines = a.splitlines() if isinstance(a, str) else [a]
    b_lines = b.splitlines() if isinstance(b, str) else [b]
    for k, (x, y) in enumerate(zip(a_lines, b_lines)):
        if x != y:
            return f"line {k + 1}:\n    base: {str(x)[:300]}\n    new:  {str(y)[:300]}"
    return f"lengths differ: {len(a_lines)} and {len(b_lines)} lines"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--dataset", default="datasets/sample")
    parser.add_argument("--work", default="/tmp/padbench-same-output")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    outputs = {}
    # The generic score file lies outside both run folders: its path is in what eval writes.
    os.makedirs(args.work, exist_ok=True)
    generic = os.path.join(args.work, "generic.csv")
    write_generic(generic)
    for side, binary in (("base", args.base), ("new", args.new)):
        outputs[side] = run_all(
            os.path.abspath(binary), os.path.join(args.work, side), args.dataset, args.quick, generic)
    differences = [f"{name}: exit/stdout differ\n    base: {outputs['base'][name]}\n    new:  {outputs['new'][name]}"
                   for name in outputs["base"] if outputs["base"][name] != outputs["new"][name]]
    base, new = members(os.path.join(args.work, "base")), members(os.path.join(args.work, "new"))
    for name in sorted(set(base) | set(new)):
        if name not in base or name not in new:
            differences.append(f"{name}: only in {'new' if name not in base else 'base'}")
            continue
        a = normal(name, base[name], os.path.join(args.work, "base"), os.path.abspath(args.base))
        b = normal(name, new[name], os.path.join(args.work, "new"), os.path.abspath(args.new))
        if a != b:
            differences.append(f"{name}: {first_difference(a, b)}")
    print(f"{len(base)} files and archive members compared, {len(outputs['base'])} commands")
    return report(differences)


def report(differences):
    """Prints each difference and the verdict; the exit code (0 when there is none)."""
    for line in differences:
        print(line)
    print("same output" if not differences else f"{len(differences)} differences")
    return 0 if not differences else 1


if __name__ == "__main__":
    sys.exit(main())
