"""Fit the mapping from padbench's face box (OpenCV's frontal Haar cascade, the detection with the
most neighbours) to the box dlib's 68-point model was trained on (dlib's HOG frontal detector).

Run once: python3 fit_box_mapping.py  (dlib-bin 20.x and opencv-python-headless 4.x from PyPI).
Photos: the committed sample's frontal faces (datasets/sample, eval split) and the cascade
fixtures' photos. For every photo where both detectors find exactly one face the script prints
width ratio (dlib width / Haar width) and the centre offsets over the Haar width; the medians are
the mapping LandmarksEstimator records as parameters (box_scale, box_shift_x, box_shift_y).
"""
import glob, os, statistics
import cv2, dlib

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
paths = sorted(glob.glob(os.path.join(root, "datasets/sample/*/*/*.jpg")) + glob.glob(os.path.join(root, "datasets/sample/*/*/*/*.jpg")))
paths += sorted(glob.glob(os.path.join(here, "../cascade/photo_*.jpg")))
haar = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
hog = dlib.get_frontal_face_detector()
ratios, shift_x, shift_y = [], [], []
for path in paths:
    gray = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    m = max(24, int(round(0.08 * min(w, h))))
    boxes, neighbours = haar.detectMultiScale2(gray, 1.1, 3, minSize=(m, m))
    dets = hog(gray, 1)
    if len(boxes) == 0 or len(dets) != 1:
        continue
    i = max(range(len(boxes)), key=lambda k: (neighbours[k], boxes[k][2] * boxes[k][3], -boxes[k][0]))
    x, y, bw, bh = [float(v) for v in boxes[i]]
    d = dets[0]
    dw = d.right() - d.left() + 1
    dcx, dcy = (d.left() + d.right() + 1) / 2, (d.top() + d.bottom() + 1) / 2
    if abs(dcx - (x + bw / 2)) > bw / 2:  # another face
        continue
    ratios.append(dw / bw)
    shift_x.append((dcx - (x + bw / 2)) / bw)
    shift_y.append((dcy - (y + bh / 2)) / bw)
    print(os.path.relpath(path, root), "haar", [x, y, bw, bh], "dlib", [d.left(), d.top(), d.right(), d.bottom()])
print("photos", len(ratios))
print("box_scale   median %.4f (min %.4f, max %.4f)" % (statistics.median(ratios), min(ratios), max(ratios)))
print("box_shift_x median %.4f (min %.4f, max %.4f)" % (statistics.median(shift_x), min(shift_x), max(shift_x)))
print("box_shift_y median %.4f (min %.4f, max %.4f)" % (statistics.median(shift_y), min(shift_y), max(shift_y)))
