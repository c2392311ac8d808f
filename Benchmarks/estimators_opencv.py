"""Python baseline for `make benchmark`: the same work as padbench's built-in estimator set
(decode, face, eyes, quality on the face region and, when a face is found, the two background
measures outside it) with OpenCV and NumPy: cv2.imdecode,
CascadeClassifier.detectMultiScale with the same cascades and parameters as FaceEstimator and
EyesEstimator, and the quality formulas of Sources/PadEstimators/QualityEstimator.swift.

Usage: python3 Benchmarks/estimators_opencv.py DATASET_DIR [--processes N]
Prints one JSON line with images/s. With --processes N the images are split over N worker
processes (the fair comparison with padbench, which uses all cores).
"""
import glob, json, os, sys, time
import cv2
import numpy as np

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

FACE = EYE = None


def full(path):
    """decode + face + eyes + quality on the face region, as padbench's estimators do."""
    global FACE, EYE
    if FACE is None:
        FACE = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
        EYE = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_eye.xml")
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
        # padbench's choice: most neighbours, then larger area, then leftmost.
        x, y, fw, fh = max(zip(faces, neighbours), key=lambda f: (f[1], f[0][2] * f[0][3], -f[0][0]))[0]
        em = max(12, fw // 10)
        EYE.detectMultiScale(gray[y:y + int(round(fh * 0.6)), x:x + fw], 1.1, 3, minSize=(em, em))
        x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + fw), min(h, y + fh)
        return quality(rgb[y0:y1, x0:x1], L[y0:y1, x0:x1]) + background(L, x0, y0, x1, y1)
    return quality(rgb, L)


def run(files):
    for f in files:
        full(f)
    return len(files)


def main():
    files = sorted(glob.glob(os.path.join(sys.argv[1], "**", "*.jpg"), recursive=True))
    processes = int(sys.argv[sys.argv.index("--processes") + 1]) if "--processes" in sys.argv else 1
    start = time.perf_counter()
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
                      "opencv_threads": 1 if processes > 1 else os.cpu_count(), "opencv": cv2.__version__}))


if __name__ == "__main__":
    main()
