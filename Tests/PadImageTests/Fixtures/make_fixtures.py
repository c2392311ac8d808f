"""Image fixtures for PadImageTests, written once with Pillow (python3 make_fixtures.py).

Each file and what the test expects is listed in README.md; expected pixels are in expected.json
(decoded by Pillow), so the Swift tests compare against an independent decoder.
"""
import io, json
from PIL import Image

def quadrants(mode, size=(32, 16)):
    # Four flat quadrants with distinct colours: survives JPEG compression well.
    im = Image.new("RGB", size)
    w, h = size
    colors = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 40)]
    for i, c in enumerate(colors):
        x0, y0 = (i % 2) * w // 2, (i // 2) * h // 2
        im.paste(c, (x0, y0, x0 + w // 2, y0 + h // 2))
    return im.convert(mode)

expected = {}
def record(name, im):
    rgb = Image.open(name).convert("RGB")
    w, h = rgb.size
    expected[name] = {"width": w, "height": h, "corners": [list(rgb.getpixel((x, y))) for x, y in [(2, 2), (w - 3, 2), (2, h - 3), (w - 3, h - 3)]]}

base = quadrants("RGB")
# EXIF orientation 6 (rotate 90 clockwise to display): stored 32x16, displayed 16x32.
exif = Image.Exif(); exif[0x0112] = 6
base.save("orient6.jpg", quality=95, exif=exif.tobytes()); record("orient6.jpg", base.rotate(-90, expand=True))
expected["orient6.jpg"]["note"] = "Pillow does not apply EXIF orientation on open; corners are of the image rotated 90 degrees clockwise"
rot = base.transpose(Image.Transpose.ROTATE_270)  # = rotate 90 clockwise
rot.save("_rot.png"); record("_rot.png", rot); expected["orient6.jpg"].update({k: expected["_rot.png"][k] for k in ["width", "height", "corners"]}); del expected["_rot.png"]
import os; os.remove("_rot.png")
base.save("progressive.jpg", quality=95, progressive=True); record("progressive.jpg", base)
quadrants("L").save("gray.jpg", quality=95); record("gray.jpg", None)
quadrants("CMYK").save("cmyk.jpg", quality=95); record("cmyk.jpg", None)
quadrants("RGB").convert("P", palette=Image.Palette.ADAPTIVE, colors=4).save("palette.png"); record("palette.png", None)
quadrants("L").convert("I").point(lambda v: v * 257).save("gray16.png")
# Pillow clips 16-bit values when converting to RGB, so the expectation is the 8-bit source: v * 257 / 257.
g = quadrants("L")
expected["gray16.png"] = {"width": 32, "height": 16, "corners": [[g.getpixel((x, y))] * 3 for x, y in [(2, 2), (29, 2), (2, 13), (29, 13)]]}
quadrants("RGBA").save("rgba_interlaced.png", interlace=1); record("rgba_interlaced.png", None)
with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1)
print(json.dumps(expected, indent=1)[:1500])
