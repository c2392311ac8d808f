"""Real photos and OpenCV's detections for CascadeTests.

Run once: python3 make_expected.py  (opencv-python-headless 4.x, scikit-image for the photos).
Writes photo_*.jpg (variants of scikit-image's public-domain / CC0 photos: crops, scales, flips,
brightness) and expected.json: for each image and cascade, cv2.CascadeClassifier.detectMultiScale2
boxes and neighbour counts on cv2.cvtColor(cv2.imread(f), COLOR_BGR2GRAY).
"""
import json, os
import cv2, numpy as np, skimage

print("OpenCV", cv2.__version__)
assert cv2.__version__.startswith("4."), "detectMultiScale reference must be OpenCV 4.x"
data = os.path.join(os.path.dirname(skimage.__file__), "data")
astronaut = cv2.imread(os.path.join(data, "astronaut.png"))
camera = cv2.imread(os.path.join(data, "camera.png"))
others = {n: cv2.imread(os.path.join(data, n)) for n in ["coffee.png", "chelsea.png", "rocket.jpg", "motorcycle_left.png", "hubble_deep_field.jpg"]}

variants = {}
for scale in [1.0, 0.8, 0.65, 0.5, 1.25]:
    variants[f"astronaut_s{int(scale*100)}"] = cv2.resize(astronaut, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
variants["astronaut_flip"] = cv2.flip(astronaut, 1)
variants["astronaut_crop"] = astronaut[20:300, 100:380]
variants["astronaut_dark"] = np.clip(astronaut.astype(np.float32) * 0.55, 0, 255).astype(np.uint8)
variants["astronaut_bright"] = np.clip(astronaut.astype(np.float32) * 1.3 + 20, 0, 255).astype(np.uint8)
variants["astronaut_pad"] = cv2.copyMakeBorder(astronaut, 60, 60, 120, 120, cv2.BORDER_CONSTANT, value=(90, 100, 110))
variants["astronaut_rot"] = cv2.warpAffine(astronaut, cv2.getRotationMatrix2D((256, 256), 8, 1.0), (512, 512), borderMode=cv2.BORDER_REFLECT)
variants["camera"] = camera
variants["camera_s75"] = cv2.resize(camera, None, fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA)
two = np.full((300, 560, 3), 120, np.uint8)
small = cv2.resize(astronaut, (260, 260), interpolation=cv2.INTER_AREA)
two[20:280, 10:270] = small
two[20:280, 290:550] = cv2.flip(small, 1)
variants["astronaut_twice"] = two
for name, img in others.items():
    h, w = img.shape[:2]
    s = min(1.0, 480 / max(h, w))
    variants["other_" + name.split(".")[0]] = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)

cascades = {
    "haar_face": ("haarcascades/haarcascade_frontalface_default.xml", 1.1, 3, 0),
    "lbp_face": ("lbpcascades/lbpcascade_frontalface_improved.xml", 1.1, 3, 0),
    "haar_eye": ("haarcascades/haarcascade_eye.xml", 1.1, 3, 0),
}
expected = {"opencv": cv2.__version__, "cascades": {k: {"file": v[0], "scaleFactor": v[1], "minNeighbors": v[2], "minSize": v[3]} for k, v in cascades.items()}, "images": {}}
for name, img in sorted(variants.items()):
    path = f"photo_{name}.jpg"
    cv2.imwrite(path, img, [cv2.IMWRITE_JPEG_QUALITY, 88])
    gray = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
    entry = {}
    for key, (file, sf, mn, ms) in cascades.items():
        cc = cv2.CascadeClassifier(os.path.join("/usr/share/opencv4", file))
        boxes, neighbours = cc.detectMultiScale2(gray, scaleFactor=sf, minNeighbors=mn, minSize=(ms, ms))
        entry[key] = [[int(v) for v in b] + [int(n)] for b, n in zip(boxes, neighbours)]
    expected["images"][path] = entry
    print(path, {k: len(v) for k, v in entry.items()})
with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1)

# Face and eyes estimators on three photos, by the procedure FaceEstimator/EyesEstimator document:
# largest face from detectMultiScale(gray, 1.1, 3, minSize = max(24, round(0.08 * min(w, h)))),
# eyes with haarcascade_eye on the upper 60% of the face box (1.1, 3, minSize max(12, w // 10)),
# best-supported detection on each side of the face's vertical midline.
face_cc = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
eye_cc = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_eye.xml")
estimators = {}
for path in ["photo_astronaut_s100.jpg", "photo_astronaut_pad.jpg", "photo_astronaut_rot.jpg", "photo_other_coffee.jpg"]:
    gray = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    m = max(24, int(round(0.08 * min(w, h))))
    faces, n = face_cc.detectMultiScale2(gray, 1.1, 3, minSize=(m, m))
    out = {"face.count": len(faces)}
    if len(faces):
        i = max(range(len(faces)), key=lambda k: (faces[k][2] * faces[k][3], -faces[k][0]))
        x, y, fw, fh = [int(v) for v in faces[i]]
        out.update({"face.x": x, "face.y": y, "face.width": fw, "face.height": fh, "face.neighbors": int(n[i])})
        region = gray[y:y + int(round(fh * 0.6)), x:x + fw]
        em = max(12, fw // 10)
        eyes, en = eye_cc.detectMultiScale2(region, 1.1, 3, minSize=(em, em))
        centres = [(x + ex + ew / 2, y + ey + eh / 2, int(k)) for (ex, ey, ew, eh), k in zip(eyes, en)]
        mid = x + fw / 2
        left = [c for c in centres if c[0] < mid]; right = [c for c in centres if c[0] >= mid]
        out["eyes.count"] = len(eyes)
        if left and right:
            l = max(left, key=lambda c: c[2]); r = max(right, key=lambda c: c[2])
            out["eyes.distance_px"] = float(np.hypot(r[0] - l[0], r[1] - l[1]))
            out["eyes.roll_deg"] = float(np.degrees(np.arctan2(r[1] - l[1], r[0] - l[0])))
    estimators[path] = out
    print(path, out)
expected["estimators"] = estimators
with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1)
