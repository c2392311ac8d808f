"""Python baseline for `make benchmark`: the same work as padbench's built-in estimator set
(decode, face, eyes, quality on the face region and, when a face is found, the two background
measures outside it) with OpenCV and NumPy: cv2.imdecode,
CascadeClassifier.detectMultiScale with the same cascades and parameters as FaceEstimator
(haarcascade_frontalface_default, then haarcascade_frontalface_alt on every detection grown by
w/2, h/2: the agreement that decides face.count and face.confidence) and EyesEstimator, and the
quality formulas of Sources/PadEstimators/QualityEstimator.swift.

With --landmarks MODEL also what `bench --estimators landmarks,head,eye_state,mouth` adds: dlib's
shape predictor (PyPI dlib-bin) on the grey image in the chosen face box mapped as
LandmarksEstimator.BoxMapping does (side 0.95 w, centre 0.108 w down), the two eye distances,
head pose by cv2.solvePnP (SOLVEPNP_ITERATIVE) of HeadPoseFit's six-point template (f = width,
principal point at the centre), angles relative to the line of sight and the eye-line roll, the
OFIQ eye openness and eye aspect ratios, and OFIQ mouth openness. What differs from padbench:
the grey plane is cv2.cvtColor's (padbench's GrayPlane uses its own fixed-point weights, so
points can differ by a pixel on some faces), and the pose fit is OpenCV's Levenberg-Marquardt
started at its own initial guess (padbench starts three fits: frontal and yaw +-35 degrees).

Usage: python3 Benchmarks/estimators_opencv.py DATASET_DIR [--processes N] [--landmarks MODEL]
Prints one JSON line with images/s. With --processes N the images are split over N worker
processes (the fair comparison with padbench, which uses all cores).
"""
import glob, json, os, sys, time
import cv2
import numpy as np
if "--landmarks" in sys.argv:
    import dlib

lin = np.array([((v / 255 + 0.055) / 1.055) ** 2.4 if v / 255 > 0.04045 else v / 255 / 12.92 for v in range(256)])
LR, LG, LB = 0.2126 * lin, 0.7152 * lin, 0.0722 * lin

def luminance(rgb):
    y = LR[rgb[..., 0]] + LG[rgb[..., 1]] + LB[rgb[..., 2]]
    return np.floor(255 * y + 0.5).clip(0, 255).astype(np.uint8)


def background(L, x0, y0, x1, y1):
    """background_uniformity (mean 3x3 Sobel magnitude of L outside the face, image border
    excluded) and background_luminance (mean L outside the face), as padbench's measures."""
    gx = cv2.Sobel(L, cv2.CV_32F, 1, 0, ksize=3).astype(np.float64)
    gy = cv2.Sobel(L, cv2.CV_32F, 0, 1, ksize=3).astype(np.float64)
    outside = np.ones(L.shape, bool)
    outside[y0:y1, x0:x1] = False
    interior = outside.copy()
    interior[0, :] = interior[-1, :] = interior[:, 0] = interior[:, -1] = False
    uniformity = np.sqrt(gx * gx + gy * gy)[interior].mean()
    return [uniformity, L[outside].mean()]


def quality(rgb, L):
    hist = np.bincount(L.ravel(), minlength=256).astype(np.float64)
    n = L.size
    p = hist / n
    values = np.arange(256)
    mean = (p * values).sum(); var = (p * values ** 2).sum() - mean ** 2
    nz = p[p > 0]; entropy = -(nz * np.log2(nz)).sum()
    under, over = hist[:26].sum() / n, hist[247:].sum() / n
    h, w = L.shape; half = w // 2
    hl = np.bincount(L[:, :half].ravel(), minlength=256); hr = np.bincount(L[:, w - half:].ravel(), minlength=256)
    uniformity = np.minimum(hl, hr).sum() / (half * h)
    mx = rgb.max(axis=2).astype(np.int32); mn = rgb.min(axis=2).astype(np.int32)
    specular = ((mx >= 230) & (10 * (mx - mn) <= mx)).mean()
    sharp = cv2.Laplacian(L, cv2.CV_64F, borderType=cv2.BORDER_REFLECT_101).var()
    F = L.astype(np.float64)
    def crete(axis):
        # cv2.blur ksize is (width, height): horizontal differences (axis 1) need the horizontal 9-tap mean.
        B = cv2.blur(F, (9, 1) if axis == 1 else (1, 9), borderType=cv2.BORDER_REPLICATE)
        dF = np.abs(np.diff(F, axis=axis)); dB = np.abs(np.diff(B, axis=axis))
        sF = dF.sum(); sV = np.maximum(0, dF - dB).sum()
        return (sF - sV) / sF if sF > 0 else np.nan
    blur = max(crete(0), crete(1))
    lab = cv2.cvtColor(rgb.astype(np.float32) / 255, cv2.COLOR_RGB2Lab)
    a, b = lab[..., 1].mean(), lab[..., 2].mean()
    da, db = max(0, 5 - a, a - 25), max(0, 5 - b, b - 35)
    return [mean, var, under, over, entropy, uniformity, specular, sharp, blur, np.sqrt(var) / 255, np.hypot(da, db)]

FACE = EYE = ALT = PREDICTOR = None
MODEL = sys.argv[sys.argv.index("--landmarks") + 1] if "--landmarks" in sys.argv else None
# HeadPoseFit.template (iBUG index, x, y, z; y up, z towards the viewer), in OpenCV's camera frame
# (y down, z forward): C = diag(1, -1, -1) applied to each point.
TEMPLATE = [(30, 0, 0, 0), (8, 0, -330, -65), (36, -225, 170, -135), (45, 225, 170, -135),
            (48, -150, -150, -125), (54, 150, -150, -125)]
OBJECT = np.array([[x, -y, -z] for _, x, y, z in TEMPLATE], np.float64)


def agreement(gray, box):
    """DetectionAgreement: best IoU of the alt cascade's boxes in the detection grown by w/2, h/2."""
    x, y, w, h = (int(v) for v in box)
    H, W = gray.shape
    hw, hh = w // 2, h // 2
    x0, y0, x1, y1 = max(0, x - hw), max(0, y - hh), min(W, x + w + hw), min(H, y + h + hh)
    best = 0.0
    for ax, ay, aw, ah in ALT.detectMultiScale(gray[y0:y1, x0:x1], 1.1, 3, minSize=(hw, hh)):
        ax, ay = ax + x0, ay + y0
        iw = max(0, min(x + w, ax + aw) - max(x, ax)); ih = max(0, min(y + h, ay + ah) - max(y, ay))
        inter = iw * ih
        best = max(best, inter / (w * h + aw * ah - inter))
    return best


def distance(a, b):
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def pose(p, w, h):
    """yaw, pitch (line of sight, ISO/IEC 39794-5 signs), eye-line roll and RMS of the PnP fit."""
    K = np.array([[w, 0, w / 2], [0, w, h / 2], [0, 0, 1]], np.float64)
    image = np.array([p[i] for i, *_ in TEMPLATE], np.float64)
    ok, rvec, tvec = cv2.solvePnP(OBJECT, image, K, None, flags=cv2.SOLVEPNP_ITERATIVE)
    C = np.diag([1.0, -1.0, -1.0])
    R = C @ cv2.Rodrigues(rvec)[0] @ C
    t = C @ tvec.reshape(3)
    v = -t / np.linalg.norm(t)
    a, b = np.arctan2(v[0], v[2]), np.arcsin(-v[1])
    ray = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]]) @ \
        np.array([[1, 0, 0], [0, np.cos(b), -np.sin(b)], [0, np.sin(b), np.cos(b)]])
    rel = ray.T @ R
    proj, _ = cv2.projectPoints(OBJECT, rvec, tvec, K, None)
    rms = np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - image) ** 2, axis=1)))
    left, right = (p[36] + p[39]) / 2, (p[42] + p[45]) / 2
    roll = np.degrees(np.arctan2(left[1] - right[1], right[0] - left[0]))
    return [np.degrees(np.arctan2(rel[0, 2], rel[2, 2])), np.degrees(np.arcsin(-rel[1, 2])), roll, rms]


def landmarks(gray, box):
    """dlib's 68 points in the mapped box, and what landmarks, head, eye_state and mouth output."""
    x, y, w, h = (float(v) for v in box)
    cx, cy, side = x + w / 2, y + h / 2 + 0.108 * w, 0.95 * w
    left, top, size = int(np.floor(cx - side / 2 + 0.5)), int(np.floor(cy - side / 2 + 0.5)), int(np.floor(side + 0.5))
    shape = PREDICTOR(gray, dlib.rectangle(left, top, left + size - 1, top + size - 1))
    p = np.array([(q.x, q.y) for q in shape.parts()], np.float64)
    H, W = gray.shape
    in_frame = np.mean((p[:, 0] >= 0) & (p[:, 1] >= 0) & (p[:, 0] < W) & (p[:, 1] < H))
    eyes = distance(p[36:42].mean(axis=0), p[42:48].mean(axis=0))
    eyes_ofiq = distance((p[36] + p[39]) / 2, (p[42] + p[45]) / 2)
    t = distance((p[36] + p[39] + p[42] + p[45]) / 4, p[8])
    opens = [max(distance(p[43], p[47]), distance(p[44], p[46])) / t, max(distance(p[37], p[41]), distance(p[38], p[40])) / t]
    def ear(e):
        return (distance(e[1], e[5]) + distance(e[2], e[4])) / (2 * distance(e[0], e[3]))
    ears = [ear(p[[45, 44, 43, 42, 47, 46]]), ear(p[36:42])]
    mouth = max(distance(p[61], p[67]), distance(p[62], p[66]), distance(p[63], p[65])) / t
    return [len(p), in_frame, eyes, eyes_ofiq] + pose(p, W, H) + opens + [min(opens)] + ears + [mouth]


def load():
    """The cascades and the landmark model, read once per command (before the worker processes
    fork, so they share them, as padbench's workers share one model)."""
    global FACE, EYE, ALT, PREDICTOR
    FACE = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
    ALT = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt.xml")
    EYE = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_eye.xml")
    if MODEL:
        PREDICTOR = dlib.shape_predictor(MODEL)


def full(path):
    """decode + face + eyes (+ landmarks, head, eye state, mouth) + quality on the face region,
    as padbench's estimators do."""
    bgr = cv2.imdecode(np.fromfile(path, dtype=np.uint8), cv2.IMREAD_COLOR)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    m = max(24, int(round(0.08 * min(w, h))))
    faces, neighbours = FACE.detectMultiScale2(gray, 1.1, 3, minSize=(m, m))
    # OFIQ luminance of the whole image: the quality measures read the face region of it, the
    # background measures the rest (padbench computes both, so the script does too).
    L = luminance(rgb)
    if len(faces):
        # padbench's choice: faces the alt cascade agrees with (>= 0.5) first, then most
        # neighbours, then larger area, then leftmost; face.count = the agreed detections.
        agreed = [agreement(gray, f) for f in faces]
        count = sum(a >= 0.5 for a in agreed)
        k = max(range(len(faces)), key=lambda i: (agreed[i] >= 0.5, neighbours[i], faces[i][2] * faces[i][3], -faces[i][0]))
        x, y, fw, fh = faces[k]
        em = max(12, fw // 10)
        EYE.detectMultiScale(gray[y:y + int(round(fh * 0.6)), x:x + fw], 1.1, 3, minSize=(em, em))
        marks = landmarks(gray, faces[k]) if PREDICTOR is not None and fw >= 8 else []
        x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + fw), min(h, y + fh)
        return [count, agreed[k]] + marks + quality(rgb[y0:y1, x0:x1], L[y0:y1, x0:x1]) + background(L, x0, y0, x1, y1)
    return quality(rgb, L)


def run(files):
    values = [full(f) for f in files]
    if "--dump" in sys.argv:  # one JSON line per image, to compare with a padbench run's samples.csv
        with open(sys.argv[sys.argv.index("--dump") + 1], "a") as out:
            for f, v in zip(files, values):
                out.write(json.dumps({"path": f, "values": [float(x) for x in v]}) + "\n")
    return len(files)


def main():
    files = sorted(glob.glob(os.path.join(sys.argv[1], "**", "*.jpg"), recursive=True))
    processes = int(sys.argv[sys.argv.index("--processes") + 1]) if "--processes" in sys.argv else 1
    start = time.perf_counter()
    load()
    if processes > 1:
        import multiprocessing
        cv2.setNumThreads(1)
        with multiprocessing.Pool(processes) as pool:
            pool.map(run, [files[i::processes] for i in range(processes)])
    else:
        cv2.setNumThreads(os.cpu_count())
        run(files)
    elapsed = time.perf_counter() - start
    print(json.dumps({"images": len(files), "seconds": elapsed, "images_per_s": len(files) / elapsed, "processes": processes,
                      "opencv_threads": 1 if processes > 1 else os.cpu_count(), "opencv": cv2.__version__,
                      "landmarks": MODEL is not None}))


if __name__ == "__main__":
    main()
