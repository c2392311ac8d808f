"""Python baseline for `make benchmark`: the same decode + quality work as padbench's `image` and
`quality` estimators (whole image, since no face estimator runs), with OpenCV and NumPy.

Usage: python3 Benchmarks/estimators_opencv.py DATASET_DIR  -> one JSON line with images/s.
Formulas follow Sources/PadEstimators/QualityEstimator.swift.
"""
import glob, json, os, sys, time
import cv2
import numpy as np

lin = np.array([((v / 255 + 0.055) / 1.055) ** 2.4 if v / 255 > 0.04045 else v / 255 / 12.92 for v in range(256)])
LR, LG, LB = 0.2126 * lin, 0.7152 * lin, 0.0722 * lin

def quality(rgb):
    y = LR[rgb[..., 0]] + LG[rgb[..., 1]] + LB[rgb[..., 2]]
    L = np.floor(255 * y + 0.5).clip(0, 255).astype(np.uint8)
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

def main():
    files = sorted(glob.glob(os.path.join(sys.argv[1], "**", "*.jpg"), recursive=True))
    cv2.setNumThreads(os.cpu_count())
    start = time.perf_counter()
    for f in files:
        data = np.fromfile(f, dtype=np.uint8)
        bgr = cv2.imdecode(data, cv2.IMREAD_COLOR)
        quality(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
    elapsed = time.perf_counter() - start
    print(json.dumps({"images": len(files), "seconds": elapsed, "images_per_s": len(files) / elapsed, "threads": "one process; OpenCV threads = cores"}))


if __name__ == "__main__":
    main()
