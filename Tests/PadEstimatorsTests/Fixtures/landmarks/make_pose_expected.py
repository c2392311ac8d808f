"""OpenCV's solvePnP on the landmarks of expected.json, for HeadPoseTests.

Run once, after make_expected.py: python3 make_pose_expected.py  (opencv-python-headless 4.x).
For every face of expected.json, the six template points of HeadPoseFit (iBUG 30 nose tip, 8 chin,
36 and 45 outer eye corners, 48 and 54 mouth corners; dlib's integer points) are fitted by
cv2.solvePnP(SOLVEPNP_ITERATIVE) with f = image width, principal point at the image centre, no
distortion. OpenCV's camera frame has y down and z forward; HeadPoseFit's has y up and z towards
the viewer, so the template goes in as C P and the result comes out as R = C R_cv C, t = C t_cv
with C = diag(1, -1, -1). Writes pose_opencv.json: per face, R (row-major) and t in HeadPoseFit's
frame and OpenCV's RMS reprojection error in pixels.
"""
import json, os
import cv2, numpy as np

here = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = [(30, 0, 0, 0), (8, 0, -330, -65), (36, -225, 170, -135), (45, 225, 170, -135),
            (48, -150, -150, -125), (54, 150, -150, -125)]
C = np.diag([1.0, -1.0, -1.0])
model = np.array([[x, y, z] for _, x, y, z in TEMPLATE], np.float64) @ C
expected = json.load(open(os.path.join(here, "expected.json")))
out = {"opencv": cv2.__version__, "faces": []}
for entry in expected["images"]:
    w, h = entry["width"], entry["height"]
    K = np.array([[w, 0, w / 2], [0, w, h / 2], [0, 0, 1]], np.float64)
    for face in entry["faces"]:
        pts = np.array([face["points"][i] for i, *_ in TEMPLATE], np.float64)
        ok, rvec, tvec = cv2.solvePnP(model, pts, K, None, flags=cv2.SOLVEPNP_ITERATIVE)
        assert ok
        proj, _ = cv2.projectPoints(model, rvec, tvec, K, None)
        rms = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - pts) ** 2, axis=1))))
        R = C @ cv2.Rodrigues(rvec)[0] @ C
        t = C @ tvec.reshape(3)
        out["faces"].append({"path": entry["path"], "source": face["source"], "rect": face["rect"],
                             "R": [float(v) for v in R.reshape(9)], "t": [float(v) for v in t], "rms_px": rms})
with open(os.path.join(here, "pose_opencv.json"), "w") as f:
    json.dump(out, f, separators=(",", ":"))
    f.write("\n")
print("faces", len(out["faces"]), "opencv", cv2.__version__)
