"""Writes a manifest dataset of N samples over a few hundred distinct tiny images: every row has
its own path (a manifest names each file once), a hard link to one of 300 generated PNG/JPEG
files, 1000 per folder; mixed labels and species, a split column, subjects. For the memory
benchmark; nothing here is committed.
With --faces SAMPLE the 300 images are instead small crops of the sample's photos around their
manifest face box (the box grown to 1.8 times its side, scaled to 64-96 px, mirrored on odd
k): tiny images in which the face detector finds a face, so the landmark model runs on each row.
With --split NAME every row is in split NAME (the one bench reports on) instead of the mix
train/dev/eval/eval: memory.sh's "all in the reported split" dataset, where every sample's
decision is kept for the metrics.
Usage: python3 Benchmarks/make_manifest.py N DIR [seed] [--faces datasets/sample] [--split NAME]"""
import csv, os, sys
import numpy as np
from PIL import Image

faces = sys.argv.pop(sys.argv.index("--faces") + 1) if "--faces" in sys.argv else None
if faces:
    sys.argv.remove("--faces")
only_split = sys.argv.pop(sys.argv.index("--split") + 1) if "--split" in sys.argv else None
if only_split:
    sys.argv.remove("--split")
n = int(sys.argv[1]); root = sys.argv[2]; seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
rng = np.random.default_rng(seed)
os.makedirs(os.path.join(root, "img"), exist_ok=True)
distinct = 300
names = []
boxes = []
if faces:
    with open(os.path.join(faces, "manifest.csv")) as f:
        boxes = [r for r in csv.DictReader(f) if r["x"] and r["path"].endswith(".jpg") and "cameraman" not in r["subject"]]


def face_crop(k):
    row = boxes[k % len(boxes)]
    x, y, w, h = (float(row[c]) for c in "xywh")
    side = 1.8 * max(w, h); cx, cy = x + w / 2, y + h / 2
    photo = Image.open(os.path.join(faces, row["path"])).convert("RGB")
    crop = photo.crop((int(cx - side / 2), int(cy - side / 2), int(cx + side / 2), int(cy + side / 2)))
    crop = crop.resize((64 + (k % 5) * 8,) * 2, Image.BILINEAR)
    return crop.transpose(Image.FLIP_LEFT_RIGHT) if k % 2 else crop


for k in range(distinct):
    path = f"img/{k:03d}." + ("png" if k % 3 == 0 else "jpg")
    full = os.path.join(root, path)
    if not os.path.exists(full) and faces:
        face_crop(k).save(full, quality=90) if path.endswith("jpg") else face_crop(k).save(full)
    elif not os.path.exists(full):
        size = 24 + (k % 5) * 8
        base = rng.integers(20, 235)
        pixels = np.clip(base + rng.normal(0, 20 + k % 40, (size, size, 3)), 0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(full, quality=85) if path.endswith("jpg") else Image.fromarray(pixels).save(full)
    names.append(path)
species = ["print", "replay", "mask"]
splits = ["train", "dev", "eval", "eval"]
with open(os.path.join(root, "manifest.csv"), "w") as f:
    f.write("path,label,species,split,subject\n")
    chunk = []
    for i in range(n):
        source = names[(i * 7919) % distinct]
        path = f"d{i // 1000:04d}/{i % 1000:03d}{source[-4:]}"
        full = os.path.join(root, path)
        if not os.path.exists(full):
            os.makedirs(os.path.dirname(full), exist_ok=True)
            os.link(os.path.join(root, source), full)
        if i % 2 == 0:
            label, sp = "bonafide", ""
        else:
            label, sp = "attack", species[(i // 2) % 3]
        chunk.append(f"{path},{label},{sp},{only_split or splits[i % 4]},s{i % 5000}\n")
        if len(chunk) == 100000:
            f.write("".join(chunk)); chunk = []
    f.write("".join(chunk))
