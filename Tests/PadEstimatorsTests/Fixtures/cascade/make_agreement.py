"""OpenCV's numbers for FaceEstimator's face count and confidence (DetectionAgreement).

Run once from this folder: python3 make_agreement.py  (opencv-python-headless 4.x; the sample
photos are read from ../../../../datasets/sample). Writes agreement.json: for every sample photo
and every photo_*.jpg here, each detection of haarcascade_frontalface_default.xml as the face
estimator makes it (detectMultiScale2(gray, 1.1, 3, minSize = max(24, round(0.08 * min(w, h))))),
with its neighbours and its agreement: haarcascade_frontalface_alt.xml run on the detection box
grown by w // 2 and h // 2 on each side (clipped), detectMultiScale2(crop, 1.1, 3,
minSize=(w // 2, h // 2)), the largest IoU between the detection and a box found there (0 when
none). A detection counts as a face when its agreement is >= 0.5.

It also prints the figures that chose this rule over the two single-cascade scores: per detection
(true face = box centre inside the manifest's face box) the neighbour count and OpenCV's level
weight (detectMultiScale3 with outputRejectLevels=True: the largest last-stage sum in the group).
"""
import csv, json, os
import cv2, numpy as np

assert cv2.__version__.startswith("4."), "CascadeClassifier reference must be OpenCV 4.x"
D = "/usr/share/opencv4/haarcascades/"
face_cc = cv2.CascadeClassifier(D + "haarcascade_frontalface_default.xml")
alt_cc = cv2.CascadeClassifier(D + "haarcascade_frontalface_alt.xml")
SAMPLE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../datasets/sample"))


def iou(a, b):
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    inter = max(0, x1 - x0) * max(0, y1 - y0)
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def agreement(gray, box):
    H, W = gray.shape
    x, y, w, h = box
    x0, y0 = max(0, x - w // 2), max(0, y - h // 2)
    x1, y1 = min(W, x + w + w // 2), min(H, y + h + h // 2)
    crop = np.ascontiguousarray(gray[y0:y1, x0:x1])
    found, _ = alt_cc.detectMultiScale2(crop, 1.1, 3, minSize=(w // 2, h // 2))
    return max([iou(box, (int(fx) + x0, int(fy) + y0, int(fw), int(fh))) for fx, fy, fw, fh in found] + [0.0])


def detections(path):
    gray = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    m = max(24, int(round(0.08 * min(w, h))))
    boxes, neighbours = face_cc.detectMultiScale2(gray, 1.1, 3, minSize=(m, m))
    b3, _, weights = face_cc.detectMultiScale3(gray, 1.1, 3, minSize=(m, m), outputRejectLevels=True)
    weight = {tuple(int(v) for v in b): float(wt) for b, wt in zip(b3, weights)}
    out = []
    for b, n in zip(boxes, neighbours):
        box = tuple(int(v) for v in b)
        out.append({"box": list(box), "neighbors": int(n), "agreement": agreement(gray, box), "level_weight": weight[box]})
    return out


images = {}
truth = {}
for row in csv.DictReader(open(os.path.join(SAMPLE, "manifest.csv"))):
    images["sample:" + row["path"]] = detections(os.path.join(SAMPLE, row["path"]))
    truth["sample:" + row["path"]] = [float(row[k]) for k in "xywh"]
here = os.path.dirname(os.path.abspath(__file__))
for f in sorted(os.listdir(here)):
    if f.startswith("photo_") and f.endswith(".jpg"):
        images[f] = detections(os.path.join(here, f))
with open(os.path.join(here, "agreement.json"), "w") as out:
    json.dump({"opencv": cv2.__version__, "threshold": 0.5, "images": images}, out, indent=1)

# Figures: which per-detection score separates the face from the background on the sample.
# eval holds the frontal astronaut; dev's cameraman is a profile face that frontal cascades find
# only in part (the manifest's box was measured by hand).
faces, profile, background = [], [], []
for key, found in images.items():
    if key not in truth:
        continue
    t = truth[key]
    for d in found:
        x, y, w, h = d["box"]
        inside = t[0] <= x + w / 2 <= t[0] + t[2] and t[1] <= y + h / 2 <= t[1] + t[3]
        (background if not inside else faces if key.startswith("sample:eval/") else profile).append(d)
for name in ["agreement", "neighbors", "level_weight"]:
    f, p, b = ([d[name] for d in group] for group in (faces, profile, background))
    print(f"{name}: eval faces {min(f):.3f}..{max(f):.3f} ({len(f)}), background {min(b):.3f}..{max(b):.3f}"
          f" ({len(b)}), dev profile faces {min(p):.3f}..{max(p):.3f} ({len(p)})")
lw = sorted(d["level_weight"] for d in faces)
print("eval faces with a level weight above the background's largest:", sum(v > max(d["level_weight"] for d in background) for v in lw), "of", len(lw))
eval_bona = [k for k in images if k.startswith("sample:eval/bonafide/")]
print("eval bona fide face counts:", sorted(sum(d["agreement"] >= 0.5 for d in images[k]) for k in eval_bona))
print("... by grouped detections alone:", sorted(len(images[k]) for k in eval_bona))
