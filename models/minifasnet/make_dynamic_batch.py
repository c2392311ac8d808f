"""Make dynamic-batch copies of the two MiniFASNet ONNX exports.

Run from anywhere:  python3 models/minifasnet/make_dynamic_batch.py
Needs: onnx (tested 1.23.2), onnxruntime (tested 1.32.0), numpy.

The exports (PyTorch 2.6.0, opset 17) fix the batch at 1 in three places:
  * the graph input `input` is [1,3,80,80] and the output `output` is [1,3];
  * the flatten before the classifier is a Reshape whose shape is the initializer
    `/conv_6_flatten/Constant_output_0` = [1,-1] (input of node `/conv_6_flatten/Reshape`,
    which reshapes the [N,512,1,1] depthwise-conv output);
  * the stored value_info (intermediate shapes) all have first dim 1.
This script sets the input's and outputs' first dim to the symbolic `batch`, replaces the Reshape
shape with [-1,512] and drops the stored value_info (optional shape annotations; runtimes infer
them). Weights, node list, opset and every other field are untouched.

It writes `<name>.batch.onnx` beside each original and then verifies with onnxruntime
(1 intra-op thread, default graph optimisation) that
  (a) batch 1 output of the copy equals the original's on random 0-255 inputs, and
  (b) one batch-7 run equals 7 single runs of the copy,
printing the maximum absolute differences.
"""
import os
import numpy as np
import onnx
from onnx import numpy_helper
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["2.7_80x80_MiniFASNetV2", "4_0_0_80x80_MiniFASNetV1SE"]
RESHAPE_SHAPE = "/conv_6_flatten/Constant_output_0"


def make(name):
    src = os.path.join(HERE, name + ".onnx")
    dst = os.path.join(HERE, name + ".batch.onnx")
    m = onnx.load(src)
    for vi in list(m.graph.input) + list(m.graph.output):
        d0 = vi.type.tensor_type.shape.dim[0]
        assert d0.dim_value == 1, (vi.name, d0)
        d0.ClearField("dim_value")
        d0.dim_param = "batch"
    inits = {t.name: t for t in m.graph.initializer}
    t = inits[RESHAPE_SHAPE]
    old = numpy_helper.to_array(t)
    assert old.tolist() == [1, -1], old
    t.CopyFrom(numpy_helper.from_array(np.array([-1, 512], dtype=old.dtype), RESHAPE_SHAPE))
    del m.graph.value_info[:]
    onnx.checker.check_model(m)
    onnx.save(m, dst)
    return src, dst


def session(path):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def verify(src, dst):
    a, b = session(src), session(dst)
    rng = np.random.default_rng(20240601)
    x = rng.integers(0, 256, size=(7, 3, 80, 80)).astype(np.float32)
    d1 = 0.0
    singles = []
    for i in range(7):
        ya = a.run(None, {"input": x[i:i + 1]})[0]
        yb = b.run(None, {"input": x[i:i + 1]})[0]
        d1 = max(d1, float(np.abs(ya - yb).max()))
        singles.append(yb)
    y7 = b.run(None, {"input": x})[0]
    assert y7.shape == (7, 3), y7.shape
    d7 = float(np.abs(y7 - np.concatenate(singles)).max())
    return d1, d7


if __name__ == "__main__":
    for n in NAMES:
        src, dst = make(n)
        d1, d7 = verify(src, dst)
        print("%s: batch-1 max|orig - copy| = %.3g; batch-7 vs 7 single runs max abs diff = %.3g (logits)" % (n, d1, d7))
