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
