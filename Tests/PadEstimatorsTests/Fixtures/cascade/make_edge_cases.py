"""OpenCV's answers for CascadeTests.edgeCasesAgreeWithOpenCV: raw windows (minNeighbors 0) and
grouped boxes on the committed photos, their crops down to the window size, minimum sizes that
skip scales (and one above the image), a maximum size, and other scale factors.

Run once: python3 make_edge_cases.py  (opencv-python-headless 4.x; uses only photo_*.jpg here).
Writes edge_cases.json: per case the photo (here, or "sample:" in datasets/sample), the crop (x, y, w, h) taken from
cv2.cvtColor(cv2.imread(photo), COLOR_BGR2GRAY), the cascade, the detectMultiScale2 parameters
and the boxes with neighbour counts (1 for every raw window when minNeighbors is 0).
"""
import json
import cv2

print("OpenCV", cv2.__version__)
assert cv2.__version__.startswith("4."), "reference must be OpenCV 4.x"
FILES = {
    "haar_face": "haarcascades/haarcascade_frontalface_default.xml",
    "haar_eye": "haarcascades/haarcascade_eye.xml",
    "lbp_face": "lbpcascades/lbpcascade_frontalface_improved.xml",
}
S100, S50, TWICE, PAD = "photo_astronaut_s100.jpg", "photo_astronaut_s50.jpg", "photo_astronaut_twice.jpg", "photo_astronaut_pad.jpg"
FULL = None
cases = [
    # name, photo, crop or None, cascade, scaleFactor, minNeighbors, minSize, maxSize
    ("raw windows, every scale", S100, FULL, "haar_face", 1.1, 0, 0, 0),
    ("raw windows, bench minimum size 41 (skips scales 1 to 1.61)", S100, FULL, "haar_face", 1.1, 0, 41, 0),
    ("raw windows, two faces, minimum size 24", TWICE, FULL, "haar_face", 1.1, 0, 24, 0),
    ("raw windows, padded photo, maximum size 100", PAD, FULL, "haar_face", 1.1, 0, 0, 100),
    ("grouped, minimum size 60", S100, FULL, "haar_face", 1.1, 3, 60, 0),
    ("grouped, minimum size 120 (no window that large holds a face)", S100, FULL, "haar_face", 1.1, 3, 120, 0),
    ("grouped, scale factor 1.05", S100, FULL, "haar_face", 1.05, 3, 0, 0),
    ("raw windows, scale factor 1.3", S100, FULL, "haar_face", 1.3, 0, 0, 0),
    ("raw windows, face crop 120 x 120", S100, (165, 55, 120, 120), "haar_face", 1.1, 0, 0, 0),
    ("raw windows, face crop 40 x 31", S100, (177, 66, 40, 31), "haar_face", 1.1, 0, 0, 0),
    ("raw windows, 52 x 52 crop of a 52-pixel face", S50, (86, 31, 52, 52), "haar_face", 1.1, 0, 0, 0),
    ("raw windows, 48 x 48 crop", S50, (88, 33, 48, 48), "haar_face", 1.1, 0, 0, 0),
    ("raw windows, 44 x 44 crop (a 43-pixel window at the last scale)", S50, (90, 36, 44, 44), "haar_face", 1.1, 0, 0, 0),
    ("crop one pixel larger than the window", S100, (180, 70, 25, 25), "haar_face", 1.1, 0, 0, 0),
    ("crop exactly the window size", S100, (180, 70, 24, 24), "haar_face", 1.1, 0, 0, 0),
    ("minimum size above the image", S100, (165, 55, 100, 100), "haar_face", 1.1, 0, 120, 0),
    ("raw eye windows, upper 60% of the face, minimum size 12", S100, (177, 66, 95, 57), "haar_eye", 1.1, 0, 12, 0),
    ("grouped eyes, upper 60% of the padded face", PAD, (297, 126, 95, 57), "haar_eye", 1.1, 3, 12, 0),
    # The bench's eye search on a sample photo: two raw windows reach past the crop's bottom edge;
    # OpenCV groups them unclipped and clips the grouped box (height 25, not 24).
    ("grouped eyes, sample 000021's upper face", "sample:eval/attack/replay/000021.jpg", (272, 121, 75, 45), "haar_eye", 1.1, 3, 12, 0),
    ("raw eye windows, sample 000021's upper face", "sample:eval/attack/replay/000021.jpg", (272, 121, 75, 45), "haar_eye", 1.1, 0, 12, 0),
    ("raw LBP windows, minimum size 41", S100, FULL, "lbp_face", 1.1, 0, 41, 0),
]
out = {"opencv": cv2.__version__, "cases": []}
for name, photo, crop, key, sf, mn, mins, maxs in cases:
    # "sample:" photos are in the repository's datasets/sample.
    path = photo.replace("sample:", "../../../../datasets/sample/")
    gray = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
    if crop:
        x, y, w, h = crop
        gray = gray[y:y + h, x:x + w]
    cc = cv2.CascadeClassifier("/usr/share/opencv4/" + FILES[key])
    boxes, neighbours = cc.detectMultiScale2(gray, scaleFactor=sf, minNeighbors=mn, minSize=(mins, mins), maxSize=(maxs, maxs))
    found = sorted([int(v) for v in b] + [int(n)] for b, n in zip(boxes, neighbours))
    out["cases"].append({"name": name, "photo": photo, "crop": list(crop) if crop else None, "cascade": FILES[key],
                         "scaleFactor": sf, "minNeighbors": mn, "minSize": mins, "maxSize": maxs, "expected": found})
    print(f"{name}: {len(found)}")
with open("edge_cases.json", "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
