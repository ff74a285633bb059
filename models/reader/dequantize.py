"""Turns a dynamically quantised reader (QInt8 weights, uint8 activations, as
export.py writes it) into float MatMuls over its dequantised weights: the weights
keep their int8 rounding, the activations are no longer quantised.

python dequantize.py reader-int8.onnx reader-float-activations.onnx

Needs the packages onnx and numpy."""
import sys
import numpy as np
import onnx
from onnx import numpy_helper, helper

src, dst = sys.argv[1], sys.argv[2]
m = onnx.load(src)
g = m.graph
inits = {i.name: i for i in g.initializer}
prod, cons = {}, {}
for n in g.node:
    for o in n.output:
        prod[o] = n
    for i in n.input:
        cons.setdefault(i, []).append(n)

drop = set()
new_inits = []
replace = {}  # id(final Mul) -> new MatMul node
for mi in [n for n in g.node if n.op_type == "MatMulInteger"]:
    a_q, b_q, _a_zp, b_zp = mi.input
    dql = prod[a_q]
    assert dql.op_type == "DynamicQuantizeLinear"
    x = dql.input[0]
    (cast,) = cons[mi.output[0]]
    (mul,) = cons[cast.output[0]]
    scale_mul = prod[[i for i in mul.input if i != cast.output[0]][0]]
    w_scale = [i for i in scale_mul.input if i in inits][0]
    w = numpy_helper.to_array(inits[b_q]).astype(np.float32)
    zp = numpy_helper.to_array(inits[b_zp]).astype(np.float32)
    s = numpy_helper.to_array(inits[w_scale]).astype(np.float32)
    wf = (w - zp) * s
    name = b_q + "_dequantized"
    new_inits.append(numpy_helper.from_array(wf.astype(np.float32), name))
    replace[id(mul)] = helper.make_node("MatMul", [x, name], [mul.output[0]], name=mul.name + "_float")
    drop.update({id(mi), id(cast), id(scale_mul)})

nodes = []
for n in g.node:
    if id(n) in replace:
        nodes.append(replace[id(n)])
    elif id(n) not in drop:
        nodes.append(n)
# DynamicQuantizeLinear nodes no longer consumed
used = {i for n in nodes for i in n.input} | {o.name for o in g.output}
nodes = [n for n in nodes if not (n.op_type == "DynamicQuantizeLinear" and not any(o in used for o in n.output))]
del g.node[:]
g.node.extend(nodes)
g.initializer.extend(new_inits)
used = {i for n in g.node for i in n.input}
keep = [i for i in g.initializer if i.name in used]
del g.initializer[:]
g.initializer.extend(keep)
onnx.checker.check_model(m)
onnx.save(m, dst)
print("converted", len(replace), "matmuls")
