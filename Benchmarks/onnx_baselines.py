"""Python onnxruntime baselines for padbench's ONNX estimators (`make benchmark`, issue 37).

Needs: onnxruntime==1.32.0, numpy, opencv-python-headless==4.14.0.94 and, for end_to_end,
dlib-bin (the .venv-ref of Tests/PadEstimatorsTests/Fixtures/onnx/make_references.py has them all:
run with .venv-ref/bin/python). Models from models/ at the repository root.

The pipelines are those of make_references.py (whose nms, get_new_box and softmax are imported
from it): every onnxruntime session is CPUExecutionProvider with intra_op_num_threads =
inter_op_num_threads = 1 and the default graph optimisation, as padbench's.

Images: the still images (.jpg rows) of DATASET's manifest.csv, in manifest order, the list
repeated --repeat times (default 1). Each measurement prints one JSON line:

  ultraface   per image, one process: cv2.imread -> cvtColor BGR2RGB -> cv2.resize to 320x240
              (INTER_LINEAR) -> (v - 127) / 128 float32 NCHW -> run RFB-320 -> scores > 0.7 -> hard NMS
              (IoU 0.3, 200 candidates) -> boxes scaled to the image. One untimed warm-up image.
              images_per_s and cpu_ms_per_image (time.process_time) of the whole; detect_* fields
              without the imread (what padbench's `face` step measures: its decode is a step of
              its own), wall (perf_counter) and CPU.
  minifasnet  the manifest face boxes of the decoded images (decode not timed, as padbench's
              `minifasnet` step): per face, for MiniFASNetV2 (x2.7) and V1SE (x4.0), upstream's
              _get_new_box crop -> cv2.resize 80x80 -> BGR float32 0-255 NCHW -> run -> softmax
              class 1, the two averaged. "batch 1" runs each face alone through the dynamic-batch
              models (models/minifasnet/*.batch.onnx, the files padbench runs; a lone sample in
              padbench is a batch of 1); "batch 16" crops 16 faces, stacks them and runs each
              network once per 16 (crops included in the time). faces_per_s (one face = one crop
              per network, two network runs), wall_ms_per_face and cpu_ms_per_face. Also batch 1
              through the static batch-1 models, for reference (minifasnet_static).
  end_to_end  what `padbench bench --estimators face,landmarks,minifasnet,quality` computes:
              decode (cv2.imread) + UltraFace (as above; chosen face = the largest box, ties by
              score then leftmost, as padbench's FaceEstimator) + dlib shape_predictor 68 points
              in the box mapped as LandmarksEstimator.BoxMapping.ultraFace (centre + (0, 0.0635 w),
              side 0.999 w, corners floor(v + 0.5)) on cv2's grey image, with in_frame and the two
              eye distances + the MiniFASNet pair on the face box + the quality measures of
              Benchmarks/estimators_opencv.py (imported: quality on the face region rounded outwards,
              background measures outside it; whole image without a face). --processes 1 (OpenCV
              threads = cores) and N (multiprocessing over the image list, 1 OpenCV thread each);
              the landmark model is read once before the processes fork, the onnxruntime sessions
              in each process (a session is not shared across fork); the time is the whole run,
              model reads and process start included, as padbench's whole-command figure.

  --boxes SAMPLES_CSV  minifasnet on the face boxes a padbench run found (its samples.csv: face.x,
              face.y, face.width, face.height) instead of the manifest's: the very crops padbench's
              `minifasnet` step ran on (make benchmark passes its own run's).

Usage: python Benchmarks/onnx_baselines.py DATASET [--measure ultraface,minifasnet,end_to_end]
           [--repeat N] [--processes 1,2] [--landmarks MODEL] [--models DIR] [--boxes SAMPLES_CSV]
"""
import argparse
import csv
import json
import os
import sys
import time

import cv2
import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests/PadEstimatorsTests/Fixtures/onnx"))
sys.path.insert(0, HERE)
from make_references import get_new_box, nms, softmax  # noqa: E402

MINIFASNET = (("v2", 2.7, "2.7_80x80_MiniFASNetV2"), ("v1se", 4.0, "4_0_0_80x80_MiniFASNetV1SE"))
THRESHOLD = np.float32(0.7)


def session(path):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def stills(dataset, repeat, boxes=None):
    """(path, face box or None) of the manifest's .jpg rows, repeated. The box is the manifest's,
    or with `boxes` (a padbench samples.csv) the face padbench found (face.x, face.y, face.width,
    face.height; None where it found none), so both sides crop exactly the same faces."""
    found = {}
    if boxes:
        with open(boxes) as f:
            for r in csv.DictReader(f):
                v = [r.get("face." + k, "") for k in ("x", "y", "width", "height")]
                ok = all(s not in ("", "nan", "NaN") for s in v)
                found[os.path.normpath(r["path"])] = [float(s) for s in v] if ok else None
    rows = []
    with open(os.path.join(dataset, "manifest.csv")) as f:
        for r in csv.DictReader(f):
            if not r["path"].lower().endswith((".jpg", ".jpeg")):
                continue
            path = os.path.join(dataset, r["path"])
            if boxes:
                key = next((k for k in (os.path.normpath(r["path"]), os.path.normpath(path),
                                        os.path.abspath(path)) if k in found), None)
                if key is None:
                    raise SystemExit("%s: no row for %s" % (boxes, r["path"]))
                box = found[key]
            else:
                box = [float(r[k]) for k in "xywh"] if r.get("x") else None
            rows.append((path, box))
    return rows * repeat


# ---------------------------------------------------------------- UltraFace

def ultraface(sess, bgr, size=(320, 240)):
    """Upstream detect_imgs_onnx.py + predict(): [(x1, y1, x2, y2, score)] in image pixels."""
    h, w = bgr.shape[:2]
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    x = (cv2.resize(rgb, size).astype(np.float32) - np.float32(127)) / np.float32(128)
    x = np.ascontiguousarray(x.transpose(2, 0, 1)[None])
    scores, boxes = sess.run(None, {"input": x})
    probs = scores[0, :, 1]
    mask = probs > THRESHOLD
    cand_boxes, cand_scores = boxes[0][mask], probs[mask]
    faces = []
    if len(cand_scores):
        scale = np.array([w, h, w, h], np.float32)
        for i in nms(cand_boxes, cand_scores):
            b = cand_boxes[i] * scale
            faces.append((float(b[0]), float(b[1]), float(b[2]), float(b[3]), float(cand_scores[i])))
    return faces


def largest(faces):
    """FaceEstimator.chooseLargest: largest area, ties by higher score, then leftmost; as (x, y, w, h)."""
    if not faces:
        return None
    x1, y1, x2, y2, _ = max(faces, key=lambda f: ((f[2] - f[0]) * (f[3] - f[1]), f[4], -f[0]))
    return [x1, y1, x2 - x1, y2 - y1]


def measure_ultraface(items, models):
    sess = session(os.path.join(models, "ultraface/version-RFB-320.onnx"))
    ultraface(sess, cv2.imread(items[0][0]))  # warm-up, untimed
    read_wall = read_cpu = det_wall = det_cpu = 0.0
    found = 0
    w0, c0 = time.perf_counter(), time.process_time()
    for path, _ in items:
        a, ac = time.perf_counter(), time.process_time()
        bgr = cv2.imread(path)
        b, bc = time.perf_counter(), time.process_time()
        found += bool(ultraface(sess, bgr))
        c, cc = time.perf_counter(), time.process_time()
        read_wall += b - a; read_cpu += bc - ac; det_wall += c - b; det_cpu += cc - bc
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    n = len(items)
    return {"measure": "ultraface", "model": "RFB-320", "images": n, "with_face": found,
            "images_per_s": n / wall, "wall_ms_per_image": 1e3 * wall / n, "cpu_ms_per_image": 1e3 * cpu / n,
            "imread_wall_ms_per_image": 1e3 * read_wall / n, "imread_cpu_ms_per_image": 1e3 * read_cpu / n,
            "detect_wall_ms_per_image": 1e3 * det_wall / n, "detect_cpu_ms_per_image": 1e3 * det_cpu / n}


# ---------------------------------------------------------------- MiniFASNet

def crop80(bgr, box, scale):
    h, w = bgr.shape[:2]
    l, t, r, b = get_new_box(w, h, box, scale)
    return cv2.resize(bgr[t:b + 1, l:r + 1], (80, 80)).astype(np.float32).transpose(2, 0, 1)


def minifasnet(sessions, bgr, box):
    """Score of one face: mean class-1 softmax of the two networks, each at batch 1."""
    p = [softmax(sess.run(None, {"input": np.ascontiguousarray(crop80(bgr, box, scale)[None])})[0][0])[1]
         for sess, scale in sessions]
    return (p[0] + p[1]) / 2


def minifasnet_batch(sessions, faces):
    """Scores of a list of (bgr, box): each network runs once on all their crops stacked."""
    probs = []
    for sess, scale in sessions:
        x = np.ascontiguousarray(np.stack([crop80(bgr, box, scale) for bgr, box in faces]))
        probs.append([softmax(row)[1] for row in sess.run(None, {"input": x})[0]])
    return [(a + b) / 2 for a, b in zip(*probs)]


def measure_minifasnet(items, models):
    cache = {}  # decoded once per file (hard links of one file, as make benchmark's copies, share it)
    faces = []
    for path, box in items:
        if box is None:
            continue
        st = os.stat(path)
        key = (st.st_dev, st.st_ino)
        if key not in cache:
            cache[key] = cv2.imread(path)
        faces.append((cache[key], box))
    out = []
    for label, suffix, batch in (("minifasnet", ".batch.onnx", 1), ("minifasnet", ".batch.onnx", 16),
                                 ("minifasnet_static", ".onnx", 1)):
        sessions = [(session(os.path.join(models, "minifasnet", name + suffix)), scale) for _, scale, name in MINIFASNET]
        minifasnet(sessions, *faces[0])  # warm-up, untimed
        if batch > 1:
            minifasnet_batch(sessions, faces[:batch])
        w0, c0 = time.perf_counter(), time.process_time()
        if batch == 1:
            for bgr, box in faces:
                minifasnet(sessions, bgr, box)
        else:
            for i in range(0, len(faces), batch):
                minifasnet_batch(sessions, faces[i:i + batch])
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        n = len(faces)
        out.append({"measure": label, "batch": batch, "models": "*" + suffix, "faces": n, "crops": 2 * n,
                    "faces_per_s": n / wall, "crops_per_s": 2 * n / wall,
                    "wall_ms_per_face": 1e3 * wall / n, "cpu_ms_per_face": 1e3 * cpu / n})
    return out


# ---------------------------------------------------------------- end to end

E2E = {}


def e2e_load(models):
    """The onnxruntime sessions of one process."""
    E2E["face"] = session(os.path.join(models, "ultraface/version-RFB-320.onnx"))
    # padbench runs the dynamic-batch copies (batch 1 when alone); the same here.
    E2E["pad"] = [(session(os.path.join(models, "minifasnet", name + ".batch.onnx")), scale)
                  for _, scale, name in MINIFASNET]


def distance(a, b):
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def e2e_one(path):
    import estimators_opencv as eo
    bgr = cv2.imread(path)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    L = eo.luminance(rgb)
    h, w = bgr.shape[:2]
    box = largest(ultraface(E2E["face"], bgr))
    if box is None:
        return eo.quality(rgb, L)
    x, y, bw, bh = box
    values = []
    if E2E.get("predictor") is not None:
        import dlib
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        cx, cy, side = x + bw / 2, y + bh / 2 + 0.0635 * bw, 0.999 * bw
        left, top = int(np.floor(cx - side / 2 + 0.5)), int(np.floor(cy - side / 2 + 0.5))
        size = int(np.floor(side + 0.5))
        shape = E2E["predictor"](gray, dlib.rectangle(left, top, left + size - 1, top + size - 1))
        p = np.array([(q.x, q.y) for q in shape.parts()], np.float64)
        in_frame = np.mean((p[:, 0] >= 0) & (p[:, 1] >= 0) & (p[:, 0] < w) & (p[:, 1] < h))
        values += [len(p), in_frame, distance(p[36:42].mean(axis=0), p[42:48].mean(axis=0)),
                   distance((p[36] + p[39]) / 2, (p[42] + p[45]) / 2)]
    values.append(minifasnet(E2E["pad"], bgr, box))
    x0, y0 = max(0, int(np.floor(x))), max(0, int(np.floor(y)))
    x1, y1 = min(w, int(np.ceil(x + bw))), min(h, int(np.ceil(y + bh)))
    if x1 <= x0 or y1 <= y0:
        return values + eo.quality(rgb, L)
    return values + eo.quality(rgb[y0:y1, x0:x1], L[y0:y1, x0:x1]) + eo.background(L, x0, y0, x1, y1)


def e2e_run(paths):
    return sum(1 for p in paths if e2e_one(p) is not None)


def e2e_init(models):
    cv2.setNumThreads(1)
    e2e_load(models)


def measure_end_to_end(items, models, processes, landmarks):
    paths = [p for p, _ in items]
    start = time.perf_counter()
    if landmarks:
        import dlib
        E2E["predictor"] = dlib.shape_predictor(landmarks)  # read once, before the fork
    if processes > 1:
        import multiprocessing
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(processes, initializer=e2e_init, initargs=(models,)) as pool:
            done = sum(pool.map(e2e_run, [paths[i::processes] for i in range(processes)]))
    else:
        cv2.setNumThreads(os.cpu_count())
        e2e_load(models)
        done = e2e_run(paths)
    wall = time.perf_counter() - start
    return {"measure": "end_to_end", "processes": processes, "images": done, "seconds": wall,
            "images_per_s": done / wall, "landmarks": bool(landmarks),
            "opencv_threads": 1 if processes > 1 else os.cpu_count(), "onnxruntime_threads": 1,
            "quality": "estimators_opencv.quality + background"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset")
    ap.add_argument("--measure", default="ultraface,minifasnet,end_to_end")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--processes", default="1,2", help="end_to_end: comma-separated process counts")
    ap.add_argument("--landmarks", default="/usr/share/dlib/shape_predictor_68_face_landmarks.dat",
                    help="dlib 68-point model for end_to_end ('' to leave landmarks out)")
    ap.add_argument("--models", default=os.path.join(ROOT, "models"))
    ap.add_argument("--boxes", help="minifasnet: the face boxes of this padbench samples.csv instead of the manifest's")
    a = ap.parse_args()
    items = stills(a.dataset, a.repeat, a.boxes)
    versions = {"onnxruntime": ort.__version__, "opencv": cv2.__version__, "numpy": np.__version__}
    for m in a.measure.split(","):
        if m == "ultraface":
            results = [measure_ultraface(items, a.models)]
        elif m == "minifasnet":
            results = measure_minifasnet(items, a.models)
        elif m == "end_to_end":
            counts = a.processes.split(",")
            if len(counts) > 1:
                # Each process count in a fresh interpreter: forking a process whose OpenCV and
                # onnxruntime already ran (their thread pools and locks) hung the pool's workers.
                import subprocess
                for p in counts:
                    argv = [sys.executable, os.path.abspath(__file__), a.dataset, "--measure", "end_to_end",
                            "--repeat", str(a.repeat), "--processes", p, "--landmarks", a.landmarks, "--models", a.models]
                    sys.stdout.write(subprocess.run(argv, check=True, stdout=subprocess.PIPE, text=True).stdout)
                    sys.stdout.flush()
                continue
            results = [measure_end_to_end(items, a.models, int(counts[0]), a.landmarks)]
        else:
            raise SystemExit("unknown measure %r" % m)
        for r in results:
            r.update(versions)
            print(json.dumps(r), flush=True)


if __name__ == "__main__":
    main()
