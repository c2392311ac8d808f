"""Reference outputs of Python onnxruntime + OpenCV for padbench's ONNX estimators.

Run once, from anywhere (writes references.json, crops/ and resize/ beside this file):

    python3 -m venv .venv-ref
    .venv-ref/bin/pip install onnxruntime==1.32.0 numpy onnx opencv-python-headless==4.14.0.94 dlib-bin==20.0.1.post1
    .venv-ref/bin/python Tests/PadEstimatorsTests/Fixtures/onnx/make_references.py
    .venv-ref/bin/python Tests/PadEstimatorsTests/Fixtures/onnx/fit_box_mapping_ultraface.py

Versions used for the committed files: Python 3.11.7, onnxruntime 1.32.0, numpy 2.4.6,
opencv-python-headless 4.14.0.94 (cv2 4.14.0), onnx 1.23.2; x86-64 Linux.
onnxruntime sessions: CPUExecutionProvider, intra_op_num_threads = inter_op_num_threads = 1,
graph optimisation level left at its default (ORT_ENABLE_ALL).

What is computed (models from models/ at the repository root):

"ultraface": for every still of datasets/sample, every Fixtures/cascade/photo_*.jpg and every
  datasets/sources/*.png, with RFB-320 and with RFB-640, the pipeline of upstream's
  detect_imgs_onnx.py (Linzaer/Ultra-Light-Fast-Generic-Face-Detector-1MB, commit dffdddd):
  cv2.imread (BGR, 3 channels even for a grayscale PNG: the gray value is replicated) ->
  cv2.cvtColor BGR2RGB -> cv2.resize(img, (320, 240)) (or (640, 480)), INTER_LINEAR ->
  (x - 127) / 128 as float32, CHW, batch 1 -> run -> upstream's predict(): keep anchors with
  scores[0, :, 1] > 0.7 (comparison in float32), hard_nms of vision/utils/box_utils_numpy.py
  (IoU threshold 0.3, candidate_size 200, eps 1e-5; see nms() below) -> box coordinates
  multiplied by image width / height in float32. Upstream then casts to int32; we do NOT, the
  float32 values are recorded exactly (as the double equal to the float32).
  "raw": for 5 images, scores[0, :20, 1] and boxes[0, :20, :] plus the best anchor, RFB-320.

"minifasnet": (image, box x,y,w,h) pairs -> upstream's crop (minivision-ai/Silent-Face-Anti-Spoofing,
  commit b6d5f04, src/generate_patches.py CropImage._get_new_box and crop) with scale 2.7 (V2)
  and 4.0 (V1SE) -> cv2.resize(crop, (80, 80)) -> the BGR crop as float32 0..255 CHW
  (src/data_io/functional.py to_tensor: no division by 255) -> logits -> softmax.
  score = (v2[1] + v1se[1]) / 2 (test.py sums the two softmaxes; class 1 = real face).

"resize": small cv2.resize INTER_LINEAR cases stored as lossless PNGs in resize/.

Every cv2.resize output used here is also checked against cv_resize_linear.resize_linear (the
numpy port documented in resize.md); the script stops if one differs.
"""
import glob
import json
import os
import sys

import numpy as np
import cv2
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))
sys.path.insert(0, HERE)
from cv_resize_linear import resize_linear  # noqa: E402

MODELS = os.path.join(ROOT, "models")


def rel(p):
    return os.path.relpath(p, ROOT)


def session(path):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.log_severity_level = 3  # silence the "initializer appears in graph inputs" warnings of the RFB exports
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def checked_resize(img, size):
    out = cv2.resize(img, size)
    mine = resize_linear(np.ascontiguousarray(img), size[0], size[1])
    if not np.array_equal(out, mine):
        raise SystemExit("cv_resize_linear differs from cv2.resize for %s -> %s" % (img.shape, size))
    return out


def f32(v):
    """float32 -> the Python float (double) with exactly the same value."""
    return float(np.float32(v))


# ---------------------------------------------------------------- UltraFace

def ultraface_input(bgr, size):
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    small = checked_resize(rgb, size)
    x = (small.astype(np.float32) - np.float32(127)) / np.float32(128)   # exact in float32
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])


def iou(rest, box, eps=np.float32(1e-5)):
    """IoU as box_utils_numpy.iou_of, in float32: overlap / (area0 + area1 - overlap + eps),
    areas from widths/heights clipped at 0."""
    lt = np.maximum(rest[:, :2], box[:2])
    rb = np.minimum(rest[:, 2:], box[2:])
    wh = np.clip(rb - lt, np.float32(0), None)
    overlap = wh[:, 0] * wh[:, 1]
    wh0 = np.clip(rest[:, 2:] - rest[:, :2], np.float32(0), None)
    wh1 = np.clip(box[2:] - box[:2], np.float32(0), None)
    a0 = wh0[:, 0] * wh0[:, 1]
    a1 = wh1[0] * wh1[1]
    return overlap / (a0 + a1 - overlap + eps)


def nms(boxes, scores, iou_threshold=np.float32(0.3), candidate_size=200):
    """Upstream's hard_nms: order candidates by score ascending (numpy's default argsort, which
    is not stable: ties among equal scores are in an unspecified order), keep the last 200,
    repeatedly take the last (highest) one and drop the rest with IoU > threshold."""
    order = np.argsort(scores, kind="quicksort")[-candidate_size:]
    picked = []
    while len(order) > 0:
        cur = order[-1]
        picked.append(int(cur))
        if len(order) == 1:
            break
        order = order[:-1]
        order = order[iou(boxes[order], boxes[cur]) <= iou_threshold]
    return picked


def ultraface_detect(sess, bgr, size):
    h, w = bgr.shape[:2]
    x = ultraface_input(bgr, size)
    scores, boxes = sess.run(None, {"input": x})
    probs = scores[0, :, 1]
    mask = probs > np.float32(0.7)
    cand_boxes = boxes[0][mask]
    cand_scores = probs[mask]
    ties = len(np.unique(cand_scores)) != len(cand_scores)
    faces = []
    if len(cand_scores):
        for i in nms(cand_boxes, cand_scores):
            b = cand_boxes[i].copy()
            b[0] *= np.float32(w)
            b[1] *= np.float32(h)
            b[2] *= np.float32(w)
            b[3] *= np.float32(h)
            faces.append([f32(b[0]), f32(b[1]), f32(b[2]), f32(b[3]), f32(cand_scores[i])])
    return faces, scores, boxes, int(mask.sum()), ties


# ---------------------------------------------------------------- MiniFASNet

def get_new_box(src_w, src_h, bbox, scale):
    """Upstream's CropImage._get_new_box, in double precision, int() truncation toward zero."""
    x, y, box_w, box_h = bbox
    scale = min((src_h - 1) / box_h, min((src_w - 1) / box_w, scale))
    new_w = box_w * scale
    new_h = box_h * scale
    cx, cy = box_w / 2 + x, box_h / 2 + y
    l, t = cx - new_w / 2, cy - new_h / 2
    r, b = cx + new_w / 2, cy + new_h / 2
    if l < 0:
        r -= l
        l = 0
    if t < 0:
        b -= t
        t = 0
    if r > src_w - 1:
        l -= r - src_w + 1
        r = src_w - 1
    if b > src_h - 1:
        t -= b - src_h + 1
        b = src_h - 1
    return int(l), int(t), int(r), int(b)


def softmax(logits):
    z = logits.astype(np.float64)
    e = np.exp(z - z.max())
    return e / e.sum()


def main():
    out = {"generated_by": "make_references.py",
           "versions": {"python": sys.version.split()[0], "onnxruntime": ort.__version__,
                        "numpy": np.__version__, "opencv": cv2.__version__},
           "session": {"intra_op_num_threads": 1, "inter_op_num_threads": 1,
                       "graph_optimization_level": "default (ORT_ENABLE_ALL)"}}

    stills = sorted(glob.glob(os.path.join(ROOT, "datasets/sample/dev/**/*.jpg"), recursive=True)
                    + glob.glob(os.path.join(ROOT, "datasets/sample/eval/**/*.jpg"), recursive=True))
    photos = sorted(glob.glob(os.path.join(HERE, "../cascade/photo_*.jpg")))
    photos = [os.path.normpath(p) for p in photos]
    sources = sorted(glob.glob(os.path.join(ROOT, "datasets/sources/*.png")))
    images = stills + photos + sources

    # ---- UltraFace
    uf = []
    raw = []
    notes = []
    rfb = {"RFB-320": (session(os.path.join(MODELS, "ultraface/version-RFB-320.onnx")), (320, 240)),
           "RFB-640": (session(os.path.join(MODELS, "ultraface/version-RFB-640.onnx")), (640, 480))}
    raw_images = set(images[i] for i in (0, 45, len(stills), len(stills) + 5, len(images) - 1))
    rfb320_faces = {}
    for p in images:
        bgr = cv2.imread(p)
        gray_file = cv2.imread(p, cv2.IMREAD_UNCHANGED).ndim == 2
        for name, (sess, size) in rfb.items():
            faces, scores, boxes, n_cand, ties = ultraface_detect(sess, bgr, size)
            e = {"image": rel(p), "model": name, "width": bgr.shape[1], "height": bgr.shape[0],
                 "faces": faces}
            if gray_file:
                e["note"] = "grayscale file; cv2.imread returned 3 equal channels"
            if ties:
                notes.append("%s %s: equal scores among the candidates (NMS order of ties unspecified)" % (rel(p), name))
            uf.append(e)
            if name == "RFB-320":
                rfb320_faces[p] = faces
                if p in raw_images:
                    best = int(np.argmax(scores[0, :, 1]))
                    raw.append({"image": rel(p), "model": name,
                                "scores_class1_first20": [f32(v) for v in scores[0, :20, 1]],
                                "boxes_first20": [[f32(v) for v in row] for row in boxes[0, :20, :]],
                                "best_anchor": best,
                                "best_scores": [f32(v) for v in scores[0, best, :]],
                                "best_box": [f32(v) for v in boxes[0, best, :]],
                                "candidates_above_0.7": n_cand})
    out["ultraface"] = uf
    out["ultraface_raw"] = raw
    out["ultraface_notes"] = notes

    # ---- MiniFASNet pairs
    pairs = []
    manifest = {}
    with open(os.path.join(ROOT, "datasets/sample/manifest.csv")) as f:
        head = f.readline().strip().split(",")
        for line in f:
            row = dict(zip(head, line.strip().split(",")))
            if row["x"]:
                manifest[os.path.join(ROOT, "datasets/sample", row["path"])] = [float(row[k]) for k in "xywh"]
    for p in stills:
        pairs.append((p, manifest[p], "manifest"))
    for p in photos:
        if len([q for q in pairs if q[2] == "ultraface RFB-320"]) >= 6:
            break
        if rfb320_faces[p]:
            x1, y1, x2, y2, _ = rfb320_faces[p][0]
            pairs.append((p, [x1, y1, x2 - x1, y2 - y1], "ultraface RFB-320"))
    astro = os.path.join(ROOT, "datasets/sources/astronaut.png")
    still = stills[0]
    synthetic = [
        (astro, [-20.5, 200.3, 90.7, 95.2], "synthetic: box past the left border"),
        (astro, [200.2, 3.6, 88.8, 90.1], "synthetic: box near the top border"),
        (astro, [470.9, 200.0, 80.4, 84.2], "synthetic: box past the right border"),
        (astro, [200.0, 460.3, 77.7, 81.9], "synthetic: box near the bottom border"),
        (astro, [480.5, 470.25, 60.0, 60.0], "synthetic: bottom-right corner"),
        (astro, [-50.0, -30.0, 600.5, 640.25], "synthetic: box larger than the image"),
        (astro, [250.3, 250.7, 2.6, 3.1], "synthetic: tiny box"),
        (astro, [100.1, 300.2, 200.9, 40.3], "synthetic: wide box, scale clamped by width"),
        (still, [2.4, 10.6, 60.3, 200.7], "synthetic: tall box at the left edge of a 640x480 image"),
        (still, [600.2, 450.9, 30.1, 25.3], "synthetic: bottom-right corner of a 640x480 image"),
    ]
    pairs += synthetic
    v2 = session(os.path.join(MODELS, "minifasnet/2.7_80x80_MiniFASNetV2.onnx"))
    v1se = session(os.path.join(MODELS, "minifasnet/4_0_0_80x80_MiniFASNetV1SE.onnx"))
    os.makedirs(os.path.join(HERE, "crops"), exist_ok=True)
    mf = []
    for k, (p, box, origin) in enumerate(pairs):
        img = cv2.imread(p)
        h, w = img.shape[:2]
        e = {"k": k, "image": rel(p), "width": w, "height": h, "box": [float(v) for v in box],
             "box_origin": origin}
        for tag, sess, scale in (("v2", v2, 2.7), ("v1se", v1se, 4.0)):
            l, t, r, b = get_new_box(w, h, box, scale)
            crop = checked_resize(img[t:b + 1, l:r + 1], (80, 80))
            name = "crops/%03d_%s.png" % (k, tag)
            cv2.imwrite(os.path.join(HERE, name), crop, [cv2.IMWRITE_PNG_COMPRESSION, 9])
            back = cv2.imread(os.path.join(HERE, name))
            assert np.array_equal(back, crop)
            x = np.ascontiguousarray(crop.astype(np.float32).transpose(2, 0, 1)[None])
            logits = sess.run(None, {"input": x})[0][0]
            e["crop_" + tag] = [l, t, r, b]
            e["png_" + tag] = name
            e[tag + "_logits"] = [f32(v) for v in logits]
            e[tag] = [float(v) for v in softmax(logits)]
        e["score"] = (e["v2"][1] + e["v1se"][1]) / 2
        mf.append(e)
    out["minifasnet"] = mf
    out["minifasnet_notes"] = ("softmax computed in float64 from the float32 logits (upstream uses torch "
                               "float32 softmax; compare with a tolerance). Crops are BGR PNGs written by "
                               "cv2.imwrite; the model input is that BGR image as float32 0..255, CHW.")

    # ---- resize fixtures
    rng = np.random.default_rng(7)
    os.makedirs(os.path.join(HERE, "resize"), exist_ok=True)
    base = cv2.imread(stills[0])
    cases = [  # (src w, src h, channels, dst w, dst h)
        (37, 29, 3, 80, 80), (120, 90, 3, 80, 80), (81, 81, 3, 80, 80), (64, 48, 3, 32, 24),
        (50, 40, 3, 25, 20), (17, 13, 3, 40, 33), (96, 72, 3, 61, 45), (33, 100, 3, 80, 80),
        (100, 33, 3, 80, 80), (2, 2, 3, 5, 7), (7, 3, 3, 80, 80), (160, 120, 3, 80, 80),
        (40, 30, 1, 80, 80), (123, 77, 1, 80, 80), (64, 48, 1, 32, 24), (21, 9, 1, 13, 50),
        (3, 5, 1, 9, 2), (90, 60, 1, 45, 61), (29, 31, 3, 29, 31), (100, 80, 3, 320, 240),
    ]
    rz = []
    for k, (sw, sh, cn, dw, dh) in enumerate(cases):
        y0, x0 = int(rng.integers(0, base.shape[0] - sh)), int(rng.integers(0, base.shape[1] - sw))
        src = base[y0:y0 + sh, x0:x0 + sw].copy()
        src = np.clip(src.astype(int) + rng.integers(-6, 7, src.shape), 0, 255).astype(np.uint8)
        if cn == 1:
            src = cv2.cvtColor(src, cv2.COLOR_BGR2GRAY)
        dst = checked_resize(src, (dw, dh))
        for nm, a in (("in", src), ("out", dst)):
            cv2.imwrite(os.path.join(HERE, "resize/%s_%02d.png" % (nm, k)), a, [cv2.IMWRITE_PNG_COMPRESSION, 9])
            assert np.array_equal(cv2.imread(os.path.join(HERE, "resize/%s_%02d.png" % (nm, k)), cv2.IMREAD_UNCHANGED), a)
        rz.append({"k": k, "in": "resize/in_%02d.png" % k, "out": "resize/out_%02d.png" % k,
                   "src_width": sw, "src_height": sh, "channels": cn, "dst_width": dw, "dst_height": dh,
                   "path": "INTER_AREA fast path (exact 2x down)" if (sw == 2 * dw and sh == 2 * dh)
                   else ("copy" if (sw, sh) == (dw, dh) else "bilinear fixed point")})
    out["resize"] = rz
    out["resize_notes"] = "PNG channels: 3 = BGR as written by cv2.imwrite, 1 = 8-bit gray. cv2.resize(src, (dst_width, dst_height))."

    path = os.path.join(HERE, "references.json")
    if os.path.exists(path):
        old = json.load(open(path))
        if "box_mapping_rfb320" in old:
            out["box_mapping_rfb320"] = old["box_mapping_rfb320"]
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print("ultraface entries", len(uf), "raw", len(raw), "minifasnet pairs", len(mf), "resize", len(rz))
    for n in notes:
        print("note:", n)


if __name__ == "__main__":
    main()
