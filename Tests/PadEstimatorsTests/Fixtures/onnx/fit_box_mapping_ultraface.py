"""Fit the mapping from UltraFace RFB-320's face box to the box dlib's 68-point landmark model was
trained on (dlib's HOG frontal detector), like ../landmarks/fit_box_mapping.py does for the Haar
cascade box.

Run once, after make_references.py (it adds "box_mapping_rfb320" to references.json):
    .venv-ref/bin/python Tests/PadEstimatorsTests/Fixtures/onnx/fit_box_mapping_ultraface.py
Needs onnxruntime 1.32.0, opencv-python-headless 4.14.0.94, dlib-bin 20.0.1.post1 (PyPI).

Photos: the committed sample's stills (datasets/sample, dev and eval) and the cascade fixtures'
photos. UltraFace box: make_references.ultraface_detect (upstream's pipeline, float pixels
x1, y1, x2, y2), converted to x = x1, y = y1, w = x2 - x1, h = y2 - y1. dlib box: HOG frontal
detector on the grayscale image with 1 upsampling, width right - left + 1 and centre
((left + right + 1) / 2, (top + bottom + 1) / 2) as in ../landmarks/fit_box_mapping.py.
A photo is used when UltraFace finds at least one face and dlib exactly one, the UltraFace face
taken being the one whose centre is nearest dlib's, and the centres are less than half an
UltraFace width apart. Printed and recorded: medians (and min, max) of
  box_scale   = dlib width / UltraFace width
  box_shift_x = (dlib centre x - UltraFace centre x) / UltraFace width
  box_shift_y = (dlib centre y - UltraFace centre y) / UltraFace width
so that dlib box = UltraFace box scaled about its centre by box_scale, shifted by
(box_shift_x, box_shift_y) * UltraFace width.
"""
import glob
import json
import os
import statistics
import sys

import cv2
import dlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))
sys.path.insert(0, HERE)
from make_references import session, ultraface_detect  # noqa: E402

paths = sorted(glob.glob(os.path.join(ROOT, "datasets/sample/*/*/*.jpg"))
               + glob.glob(os.path.join(ROOT, "datasets/sample/*/*/*/*.jpg")))
paths += sorted(os.path.normpath(p) for p in glob.glob(os.path.join(HERE, "../cascade/photo_*.jpg")))
sess = session(os.path.join(ROOT, "models/ultraface/version-RFB-320.onnx"))
hog = dlib.get_frontal_face_detector()
ratios, shift_x, shift_y, used = [], [], [], []
for path in paths:
    bgr = cv2.imread(path)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    faces = ultraface_detect(sess, bgr, (320, 240))[0]
    dets = hog(gray, 1)
    if not faces or len(dets) != 1:
        continue
    d = dets[0]
    dw = d.right() - d.left() + 1
    dcx, dcy = (d.left() + d.right() + 1) / 2, (d.top() + d.bottom() + 1) / 2
    x1, y1, x2, y2, _ = min(faces, key=lambda f: ((f[0] + f[2]) / 2 - dcx) ** 2 + ((f[1] + f[3]) / 2 - dcy) ** 2)
    uw, uh = x2 - x1, y2 - y1
    ucx, ucy = x1 + uw / 2, y1 + uh / 2
    if abs(dcx - ucx) > uw / 2 or abs(dcy - ucy) > uw / 2:  # another face
        continue
    ratios.append(dw / uw)
    shift_x.append((dcx - ucx) / uw)
    shift_y.append((dcy - ucy) / uw)
    used.append(os.path.relpath(path, ROOT))
    print(os.path.relpath(path, ROOT), "ultraface", [round(v, 2) for v in (x1, y1, uw, uh)],
          "dlib", [d.left(), d.top(), d.right(), d.bottom()])


def summary(v):
    return {"median": statistics.median(v), "min": min(v), "max": max(v)}


result = {"photos": len(ratios), "box_scale": summary(ratios), "box_shift_x": summary(shift_x),
          "box_shift_y": summary(shift_y),
          "definition": "dlib box = RFB-320 box (x1,y1,x2,y2 -> x,y,w,h float pixels) scaled about its centre by "
                        "box_scale (width and height), centre moved by (box_shift_x, box_shift_y) * ultraface width; "
                        "dlib HOG frontal detector, 1 upsampling, width right-left+1",
          "images": used}
print("photos", len(ratios))
for k in ("box_scale", "box_shift_x", "box_shift_y"):
    s = result[k]
    print("%-11s median %.4f (min %.4f, max %.4f)" % (k, s["median"], s["min"], s["max"]))
path = os.path.join(HERE, "references.json")
refs = json.load(open(path))
refs["box_mapping_rfb320"] = result
with open(path, "w") as f:
    json.dump(refs, f, indent=1)
    f.write("\n")
