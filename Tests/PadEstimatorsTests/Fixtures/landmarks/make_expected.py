"""dlib's own 68 landmarks on the committed sample, for ShapePredictorTests.

Run once: python3 make_expected.py  (dlib-bin 20.x and numpy from PyPI;
Debian's libdlib-data for the model file). Writes expected.json:
- model: the file, its size and SHA-256;
- mapping: the face-box mapping LandmarksEstimator uses by default (fit_box_mapping.py);
- images: for every photo of datasets/sample (80), the FNV-1a 64 hash of the grey plane fed to
  dlib and its faces. The plane is padbench's: the JPEG decoded by Debian's libturbojpeg (the
  library padbench links, called through ctypes with padbench's flags, TJFLAG_ACCURATEDCT |
  TJFLAG_STOPONWARNING, to RGB) and made grey with GrayPlane's fixed-point weights
  (4899 R + 9617 G + 1868 B + 8192) >> 14. (cv2.imread's bundled libjpeg-turbo decodes 22 of the
  80 photos differently.) The test checks the hash before comparing points. Faces: the manifest's face box
  mapped to a dlib rectangle ("manifest"), and every face dlib's HOG detector finds at one
  upsampling ("hog"); for each, the rectangle (left, top, right, bottom) and dlib's 68 points.
"""
import csv, ctypes, hashlib, json, math, os
import dlib, numpy as np

MODEL = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
SCALE, SHIFT_X, SHIFT_Y = 0.95, 0.0, 0.108  # LandmarksEstimator.defaultBoxMapping

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
sample = os.path.join(root, "datasets/sample")


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


turbo = ctypes.CDLL("libturbojpeg.so.0")
turbo.tjInitDecompress.restype = ctypes.c_void_p
turbo.tjDecompressHeader3.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ulong] + [ctypes.POINTER(ctypes.c_int)] * 4
turbo.tjDecompress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p] + [ctypes.c_int] * 5
TJPF_RGB, TJFLAG_ACCURATEDCT, TJFLAG_STOPONWARNING = 0, 4096, 8192


def padbench_gray(path):
    """ImageDecoder.decodeJPEG then GrayPlane(image), in Python."""
    data = open(path, "rb").read()
    handle = turbo.tjInitDecompress()
    w, h, sub, cs = (ctypes.c_int() for _ in range(4))
    assert turbo.tjDecompressHeader3(handle, data, len(data), w, h, sub, cs) == 0
    rgb = np.zeros((h.value, w.value, 3), np.uint8)
    assert turbo.tjDecompress2(handle, data, len(data), rgb.ctypes.data, w.value, 0, h.value, TJPF_RGB,
                               TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING) == 0
    turbo.tjDestroy(ctypes.c_void_p(handle))
    r, g, b = (rgb[:, :, i].astype(np.int32) for i in range(3))
    return ((r * 4899 + g * 9617 + b * 1868 + 8192) >> 14).astype(np.uint8)


def mapped(x, y, w, h):
    """LandmarksEstimator.rectangle(for:): the box's centre moved by (SHIFT_X w, SHIFT_Y w), a square
    of side SCALE w, corners rounded with floor(v + 0.5), dlib's inclusive right and bottom."""
    cx, cy, side = x + w / 2 + SHIFT_X * w, y + h / 2 + SHIFT_Y * w, SCALE * w
    left, top, size = math.floor(cx - side / 2 + 0.5), math.floor(cy - side / 2 + 0.5), math.floor(side + 0.5)
    return [left, top, left + size - 1, top + size - 1]


predictor = dlib.shape_predictor(MODEL)
hog = dlib.get_frontal_face_detector()
with open(MODEL, "rb") as f:
    sha = hashlib.sha256(f.read()).hexdigest()
out = {"dlib": dlib.__version__,
       "model": {"file": MODEL, "bytes": os.path.getsize(MODEL), "sha256": sha},
       "mapping": {"scale": SCALE, "shift_x": SHIFT_X, "shift_y": SHIFT_Y}, "images": []}
faces = 0
with open(os.path.join(sample, "manifest.csv")) as f:
    rows = sorted(csv.DictReader(f), key=lambda r: r["path"])
for row in rows:
    gray = padbench_gray(os.path.join(sample, row["path"]))
    rects = [("manifest", mapped(*[float(row[k]) for k in "xywh"]))]
    rects += [("hog", [d.left(), d.top(), d.right(), d.bottom()]) for d in hog(gray, 1)]
    entry = {"path": row["path"], "width": gray.shape[1], "height": gray.shape[0],
             "gray_fnv1a64": fnv1a64(gray.tobytes()), "faces": []}
    for source, r in rects:
        shape = predictor(gray, dlib.rectangle(*r))
        entry["faces"].append({"source": source, "rect": r,
                               "points": [[shape.part(i).x, shape.part(i).y] for i in range(shape.num_parts)]})
        faces += 1
    out["images"].append(entry)
with open(os.path.join(here, "expected.json"), "w") as f:
    json.dump(out, f, separators=(",", ":"))
    f.write("\n")
print("images", len(out["images"]), "faces", faces, "dlib", dlib.__version__)
