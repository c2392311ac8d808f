#!/usr/bin/env python3
"""MiniFASNet (V2 + V1SE) as a batched padbench external estimator: onnxruntime and numpy only.

    padbench bench --dataset datasets/sample --profiles basic --estimators face \
      --external "mf=.venv/bin/python examples/external/minifasnet_batched.py"

Outputs (each in [0, 1], higher = more likely bona fide):
  v2     MiniFASNetV2's class-1 ("real face") probability, crop scale 2.7;
  v1se   MiniFASNetV1SE's class-1 probability, crop scale 4.0;
  score  (v2 + v1se) / 2, as Silent-Face-Anti-Spoofing's test.py (it sums the two softmaxes).

Protocol (one JSON object per line, answers flushed):
  {"describe": true} -> {"outputs": ["score", "v2", "v1se"], "batch": 32, "input": "rgb24", ...}
  {"batch": [request, ...]} (1..32 requests) -> {"batch": [answer, ...]} (one answer per request,
  each with its id); a plain request line (no "batch") gets one plain answer line.
  A request is {"id", "path", "face": [x, y, w, h], "pixels": {"path", "offset", "width",
  "height", "stride", "format": "rgb24"}, ...}: the upright decoded image as 8-bit RGB rows of
  `stride` bytes from byte `offset` of the file (a binary PPM written by padbench). A request
  without "pixels" whose `path` is a binary PPM (P6, maxval 255) is read from that file.
  A request without "face" gets null outputs (NaN: not assessable); one whose pixels cannot be
  read, or whose face box is not 4 finite numbers with positive width and height, gets
  {"id", "error"}.

The pipeline is upstream's (minivision-ai/Silent-Face-Anti-Spoofing, commit b6d5f04):
  crop: src/generate_patches.py CropImage._get_new_box on the face box as floats, in double
        precision, int() truncation; rows top..bottom and columns left..right inclusive;
  resize to 80x80 with cv2.resize's INTER_LINEAR, reproduced bit-exactly in numpy (cv_resize.py);
  the crop as BGR float32 0..255 (no division by 255), planar NCHW, one run per model per batch;
  softmax in float64 over the 3 logits; class 1 = real face.
Models: models/minifasnet/2.7_80x80_MiniFASNetV2.batch.onnx and 4_0_0_80x80_MiniFASNetV1SE.batch.onnx
(dynamic-batch copies made by models/minifasnet/make_dynamic_batch.py), found from this file's
location (the repository root is two folders up) unless --models DIR names their folder.
onnxruntime sessions: CPUExecutionProvider, 1 intra-op thread, 1 inter-op thread, log severity 3.
On datasets/sample's 80 stills with the manifest's boxes the outputs equal
Tests/PadEstimatorsTests/Fixtures/onnx/references.json ("minifasnet", k 0..79) within 1e-5.
"""
import argparse
import json
import math
import os
import sys

import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cv_resize import resize_linear  # noqa: E402

VERSION = "minifasnet-batched-1 (MiniFASNetV2 2.7 + MiniFASNetV1SE 4.0, onnxruntime %s)" % ort.__version__
OUTPUTS = ["score", "v2", "v1se"]
BATCH = 32
MODELS = (("v2", "2.7_80x80_MiniFASNetV2.batch.onnx", 2.7),
          ("v1se", "4_0_0_80x80_MiniFASNetV1SE.batch.onnx", 4.0))


class RequestError(Exception):
    """A problem with one request: answered as {"id", "error"}."""


def session(path):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def get_new_box(src_w, src_h, bbox, scale):
    """Upstream's CropImage._get_new_box, in double precision, int() truncation toward zero:
    (left, top, right, bottom), all inclusive."""
    x, y, box_w, box_h = bbox
    scale = min((src_h - 1) / box_h, min((src_w - 1) / box_w, scale))
    new_w = box_w * scale
    new_h = box_h * scale
    cx, cy = box_w / 2 + x, box_h / 2 + y
    l, t = cx - new_w / 2, cy - new_h / 2
    r, b = cx + new_w / 2, cy + new_h / 2
    if l < 0:
        r -= l
        l = 0
    if t < 0:
        b -= t
        t = 0
    if r > src_w - 1:
        l -= r - src_w + 1
        r = src_w - 1
    if b > src_h - 1:
        t -= b - src_h + 1
        b = src_h - 1
    return int(l), int(t), int(r), int(b)


def read_ppm_header(path):
    """(offset, width, height) of a binary PPM (P6, maxval 255)."""
    with open(path, "rb") as f:
        head = f.read(1024)
    fields, i = [], 0
    while len(fields) < 4:
        while i < len(head) and head[i:i + 1].isspace():
            i += 1
        if head[i:i + 1] == b"#":
            while i < len(head) and head[i:i + 1] not in (b"\n", b"\r"):
                i += 1
            continue
        j = i
        while j < len(head) and not head[j:j + 1].isspace():
            j += 1
        if j == i or j >= len(head):
            raise RequestError("%s is not a binary PPM (P6) file" % path)
        fields.append(head[i:j])
        i = j
    if fields[0] != b"P6" or fields[3] != b"255":
        raise RequestError("%s is not a binary 8-bit PPM (P6, maxval 255) file" % path)
    return i + 1, int(fields[1]), int(fields[2])


def read_pixels(request):
    """The request's upright RGB image as a (height, width, 3) uint8 array."""
    px = request.get("pixels")
    if px is None:
        path = request.get("path")
        if not isinstance(path, str):
            raise RequestError("no pixels and no path in the request")
        offset, width, height = read_ppm_header(path)
        px = {"path": path, "offset": offset, "width": width, "height": height,
              "stride": 3 * width, "format": "rgb24"}
    if not isinstance(px, dict) or px.get("format") != "rgb24":
        raise RequestError("pixels are not rgb24")
    try:
        path, offset = px["path"], int(px["offset"])
        width, height, stride = int(px["width"]), int(px["height"]), int(px["stride"])
    except (KeyError, TypeError, ValueError):
        raise RequestError("pixels need path, offset, width, height and stride")
    if width < 1 or height < 1 or stride < 3 * width or offset < 0:
        raise RequestError("bad pixel geometry: %dx%d, stride %d, offset %d" % (width, height, stride, offset))
    try:
        data = np.fromfile(path, dtype=np.uint8, offset=offset, count=stride * height)
    except (OSError, ValueError) as error:
        raise RequestError("cannot read pixels from %s: %s" % (path, getattr(error, "strerror", None) or error))
    if data.size != stride * height:
        raise RequestError("%s holds %d pixel bytes after offset %d, %d expected" % (path, data.size, offset, stride * height))
    return data.reshape(height, stride)[:, :3 * width].reshape(height, width, 3)


def face_box(request):
    face = request.get("face")
    if face is None:
        return None
    if (not isinstance(face, list) or len(face) < 4
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in face[:4])):
        raise RequestError("face must be [x, y, w, h] numbers")
    box = [float(v) for v in face[:4]]
    if box[2] <= 0 or box[3] <= 0:
        raise RequestError("face box has no area: %r" % (face,))
    return box


def softmax(logits):
    z = np.asarray(logits, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class Estimator:
    def __init__(self, models_dir):
        self.models = [(tag, session(os.path.join(models_dir, name)), scale) for tag, name, scale in MODELS]
        self.input_names = [s.get_inputs()[0].name for _, s, _ in self.models]

    def crops(self, rgb, box):
        """One 3x80x80 float32 BGR planar input per model."""
        h, w = rgb.shape[:2]
        out = []
        for _, _, scale in self.models:
            l, t, r, b = get_new_box(w, h, box, scale)
            small = resize_linear(rgb[t:b + 1, l:r + 1], 80, 80)
            out.append(small[:, :, ::-1].transpose(2, 0, 1).astype(np.float32))
        return out

    def answer(self, requests):
        """Answers for a list of requests (same order)."""
        answers = [None] * len(requests)
        todo, inputs = [], [[] for _ in self.models]
        for i, request in enumerate(requests):
            sample = request.get("id") if isinstance(request, dict) else None
            if not isinstance(sample, str):
                answers[i] = {"id": str(sample), "error": "request without a string id"}
                continue
            try:
                box = face_box(request)
                if box is None:
                    answers[i] = {"id": sample, "outputs": {name: None for name in OUTPUTS}}
                    continue
                planes = self.crops(read_pixels(request), box)
            except RequestError as error:
                answers[i] = {"id": sample, "error": str(error)}
                continue
            except (MemoryError, ValueError, OSError) as error:
                answers[i] = {"id": sample, "error": "%s: %s" % (type(error).__name__, error)}
                continue
            todo.append(i)
            for k, plane in enumerate(planes):
                inputs[k].append(plane)
        if todo:
            try:
                probs = []
                for (tag, sess, _), name, planes in zip(self.models, self.input_names, inputs):
                    logits = sess.run(None, {name: np.ascontiguousarray(np.stack(planes))})[0]
                    probs.append(softmax(logits)[:, 1])
                for j, i in enumerate(todo):
                    v2, v1se = float(probs[0][j]), float(probs[1][j])
                    outputs = {"score": (v2 + v1se) / 2, "v2": v2, "v1se": v1se}
                    answers[i] = {"id": requests[i]["id"],
                                  "outputs": {k: (v if math.isfinite(v) else None) for k, v in outputs.items()}}
            except Exception as error:  # noqa: BLE001 - a failed run fails its requests, not the program
                for i in todo:
                    answers[i] = {"id": requests[i]["id"], "error": "model run failed: %s" % error}
        return answers


def describe():
    return {"outputs": OUTPUTS, "version": VERSION, "batch": BATCH, "input": "rgb24",
            "ranges": {name: [0, 1] for name in OUTPUTS},
            "directions": {name: "higher-better" for name in OUTPUTS}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=os.path.join(HERE, "..", "..", "models", "minifasnet"),
                        help="folder of the two .batch.onnx models (default: models/minifasnet of this repository)")
    args = parser.parse_args()
    estimator = Estimator(os.path.normpath(args.models))
    out = sys.stdout
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            sys.exit("not a JSON line: %.200r" % line)
        if not isinstance(message, dict):
            sys.exit("not a JSON object: %.200r" % line)
        if message.get("describe"):
            reply = describe()
        elif "batch" in message:
            batch = message["batch"]
            if not isinstance(batch, list):
                sys.exit("batch is not a list: %.200r" % line)
            reply = {"batch": estimator.answer(batch)}
        else:
            reply = estimator.answer([message])[0]
        out.write(json.dumps(reply, allow_nan=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
