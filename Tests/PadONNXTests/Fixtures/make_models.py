"""Tiny hand-made ONNX models for padbench's model-refusal tests (run once with the `onnx` package
from PyPI, 1.23; the outputs are committed):
- vector_identity.onnx: a float32 [1, 10] -> [1, 10] identity (a valid model whose input is no image);
- int64_identity.onnx: an int64 [1, 4] identity (a tensor padbench does not run).
"""
import onnx
from onnx import TensorProto, helper

def identity(name, elem, shape):
    x = helper.make_tensor_value_info("x", elem, shape)
    y = helper.make_tensor_value_info("y", elem, shape)
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], name, [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="padbench-tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, f"{name}.onnx")

identity("vector_identity", TensorProto.FLOAT, [1, 10])
identity("int64_identity", TensorProto.INT64, [1, 4])
