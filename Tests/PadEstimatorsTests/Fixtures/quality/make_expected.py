"""Reference quality values for QualityTests, computed with NumPy/OpenCV by the independent
implementation in Benchmarks/estimators_opencv.py (function `quality`), on the whole image of three
photos from ../cascade/. Run: python3 make_expected.py  (writes expected.json)."""
import json, os, sys
import cv2
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "../../../../Benchmarks"))
sys.argv = ["estimators_opencv.py", here]   # the module scans argv[1] only when run as a script
from estimators_opencv import quality  # noqa: E402
names = ["luminance_mean", "luminance_variance", "underexposure", "overexposure", "dynamic_range",
         "illumination_uniformity", "specularity", "sharpness", "blur", "contrast", "natural_colour"]
out = {}
for f in ["photo_astronaut_s100.jpg", "photo_camera.jpg", "photo_other_coffee.jpg"]:
    rgb = cv2.cvtColor(cv2.imread(os.path.join(here, "../cascade", f)), cv2.COLOR_BGR2RGB)
    out[f] = {"quality." + n: repr(float(v)) for n, v in zip(names, quality(rgb))}
json.dump(out, open(os.path.join(here, "expected.json"), "w"), indent=1)
print(out)
