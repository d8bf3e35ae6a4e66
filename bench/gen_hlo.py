#!/usr/bin/env python3
"""Writes a realistic, partitioned (SPMD) LLM module for topolint benchmarks.

The output directory receives one unit:
  model.hlo         HLO text of an unrolled decoder stack, as XLA dumps it after
                    SPMD partitioning: per layer an RMS-norm / attention / MLP
                    block with dots, fusions (and their fused computations),
                    tuples, get-tuple-element, bitcasts, constants, long
                    `metadata={...}` and `backend_config={...}` JSON, and the
                    collectives of sequence-parallel tensor parallelism: async
                    all-gather-start/done pairs, reduce-scatter, all-reduce
                    (array and tuple), collective-permute-start/done, in iota
                    (`[1,32]<=[32]`, `[1,32]<=[2,16]T(0,1)`, `[1,32]<=[4,8]T(0,1)`) and explicit
                    (`{{0,1,...}}`) forms that all expand to the same groups.
  def.json          the NEFF sidecar whose CCInfo matches the module.
  vllm_config.json  a component configuration whose TP x DP is the device count.

The unit is consistent: topolint reports no finding on it (exit 0), so the
benchmark measures the cost of checking, not of printing findings.

--dense writes instead one huge ENTRY computation (no calls) with a
collective every ~1.5 KB: an unrolled decoder with async all-reduce and
all-gather start/done pairs over tuples, reduce-scatter, tuple all-reduces
and collective-permute-start/done (about 200,000 collectives in 300 MiB).

--explicit-ids N writes instead one all-reduce over one explicit group of N
ids (`replica_groups={{0,1,...,N-1}}`), with the matching def.json.

--large-groups N writes instead a module of N all-reduces over one group of
--devices ids each (`[1,65536]<=[65536]`), with the matching def.json.

Output is deterministic (no randomness, no timestamps). Python 3 stdlib only.
"""

import argparse
import json
import os
import sys

BATCH = 4
SEQ = 2048
HIDDEN = 4096
FFN = 14336
HEADS = 32
HEAD_DIM = HIDDEN // HEADS

SOURCE_FILE = "/opt/workspace/llama/src/transformers_neuronx/llama/modeling_llama.py"
JIT = "jit(train_step)/jit(main)/jvp(LlamaForCausalLM)"


def backend(kind, extra=""):
    """backend_config JSON as XLA's GPU/Neuron backends print it."""
    base = '"operation_queue_id":"0","wait_on_operation_queues":[]'
    if kind == "gemm":
        return ("{" + base + ',"gemm_backend_config":{"alpha_real":1,"beta":0,'
                '"dot_dimension_numbers":{"lhs_contracting_dimensions":["2"],'
                '"rhs_contracting_dimensions":["0"],"lhs_batch_dimensions":[],'
                '"rhs_batch_dimensions":[]},"alpha_imag":0,"precision_config":'
                '{"operand_precision":["DEFAULT","DEFAULT"],"algorithm":'
                '"ALG_UNSET"},"epilogue":"DEFAULT","damax_output":false,'
                '"lhs_stride":"8388608","rhs_stride":"2097152","grad_x":false,'
                '"grad_y":false' + extra + '},"force_earliest_schedule":false}')
    if kind == "fusion":
        return ("{" + base + ',"fusion_backend_config":{"kind":"__loop_fusion",'
                '"block_level_fusion_config":{"output_tiles":[{"sizes":["1","16",'
                '"512"]}],"num_warps":"4","num_ctas":1,"num_stages":1}' + extra +
                '},"force_earliest_schedule":false,"reification_cost":[]}')
    # collectives
    return ("{" + base + ',"collective_backend_config":{"is_sync":' +
            ("true" if extra == "sync" else "false") +
            ',"no_parallel_custom_call":false,"is_pipelined":false,'
            '"backend":"DEFAULT"},"force_earliest_schedule":false}')


class Module:
    """Accumulates HLO text; ids give every instruction a unique XLA-like name."""

    def __init__(self, out, tp):
        self.out = out
        self.tp = tp
        self.next_id = 1
        self.next_channel = 1
        self.written = 0
        self.source_line = 100

    def uid(self):
        self.next_id += 1
        return self.next_id

    def channel(self):
        self.next_channel += 1
        return self.next_channel

    def write(self, text):
        self.out.write(text)
        self.written += len(text)

    def meta(self, layer, what):
        self.source_line = (self.source_line * 7 + 13) % 2400 + 1
        return ('metadata={op_name="%s/model.layers.%d/%s" source_file="%s" '
                'source_line=%d}' % (JIT, layer, what, SOURCE_FILE,
                                     self.source_line))


def groups_form(tp, k):
    """Four spellings of the same single group {0..tp-1}, rotated by k."""
    k %= 4
    if k == 0:
        return "[1,%d]<=[%d]" % (tp, tp)
    if k == 1 and tp % 2 == 0:
        return "[1,%d]<=[2,%d]T(0,1)" % (tp, tp // 2)
    if k == 2 and tp % 4 == 0:
        return "[1,%d]<=[4,%d]T(0,1)" % (tp, tp // 4)
    return "{{" + ",".join(str(i) for i in range(tp)) + "}}"


def ring_pairs(tp):
    return "{" + ",".join("{%d,%d}" % (i, (i + 1) % tp) for i in range(tp)) + "}"


def fused_computations(m, layer):
    """The fused computations one layer's fusions call; returns their names."""
    names = {}
    S = SEQ // m.tp  # the residual stream is sequence sharded
    h = "bf16[%d,%d,%d]" % (BATCH, S, HIDDEN)
    hl = h + "{2,1,0}"
    # RMS norm.
    n = "fused_rms_norm.%d" % m.uid()
    names["norm"] = n
    p0, p1 = "param_0.%d" % m.uid(), "param_1.%d" % m.uid()
    i = [m.uid() for _ in range(12)]
    m.write(
        "%%%s (%s: %s, %s: bf16[%d]) -> %s {\n" % (n, p0, h, p1, HIDDEN, h) +
        "  %%%s = %s parameter(0)\n" % (p0, hl) +
        "  %%%s = bf16[%d]{0} parameter(1)\n" % (p1, HIDDEN) +
        "  %%convert.%d = f32[%d,%d,%d]{2,1,0} convert(%s %%%s), %s\n" % (
            i[0], BATCH, S, HIDDEN, hl, p0, m.meta(layer, "input_layernorm/convert_element_type[new_dtype=float32 weak_type=False]")) +
        "  %%multiply.%d = f32[%d,%d,%d]{2,1,0} multiply(f32[%d,%d,%d]{2,1,0} %%convert.%d, f32[%d,%d,%d]{2,1,0} %%convert.%d), %s\n" % (
            i[1], BATCH, S, HIDDEN, BATCH, S, HIDDEN, i[0], BATCH, S, HIDDEN, i[0], m.meta(layer, "input_layernorm/integer_pow[y=2]")) +
        "  %%constant.%d = f32[] constant(0)\n" % i[2] +
        "  %%reduce.%d = f32[%d,%d]{1,0} reduce(f32[%d,%d,%d]{2,1,0} %%multiply.%d, f32[] %%constant.%d), dimensions={2}, to_apply=%%region_add_f32, %s\n" % (
            i[3], BATCH, S, BATCH, S, HIDDEN, i[1], i[2], m.meta(layer, "input_layernorm/reduce_sum[axes=(2,)]")) +
        "  %%constant.%d = f32[] constant(0.000244140625)\n" % i[4] +
        "  %%broadcast.%d = f32[%d,%d]{1,0} broadcast(f32[] %%constant.%d), dimensions={}\n" % (i[5], BATCH, S, i[4]) +
        "  %%multiply.%d = f32[%d,%d]{1,0} multiply(f32[%d,%d]{1,0} %%reduce.%d, f32[%d,%d]{1,0} %%broadcast.%d), %s\n" % (
            i[6], BATCH, S, BATCH, S, i[3], BATCH, S, i[5], m.meta(layer, "input_layernorm/div")) +
        "  %%rsqrt.%d = f32[%d,%d]{1,0} rsqrt(f32[%d,%d]{1,0} %%multiply.%d), %s\n" % (
            i[7], BATCH, S, BATCH, S, i[6], m.meta(layer, "input_layernorm/rsqrt")) +
        "  %%broadcast.%d = f32[%d,%d,%d]{2,1,0} broadcast(f32[%d,%d]{1,0} %%rsqrt.%d), dimensions={0,1}\n" % (
            i[8], BATCH, S, HIDDEN, BATCH, S, i[7]) +
        "  %%multiply.%d = f32[%d,%d,%d]{2,1,0} multiply(f32[%d,%d,%d]{2,1,0} %%convert.%d, f32[%d,%d,%d]{2,1,0} %%broadcast.%d), %s\n" % (
            i[9], BATCH, S, HIDDEN, BATCH, S, HIDDEN, i[0], BATCH, S, HIDDEN, i[8], m.meta(layer, "input_layernorm/mul")) +
        "  %%convert.%d = %s convert(f32[%d,%d,%d]{2,1,0} %%multiply.%d)\n" % (i[10], hl, BATCH, S, HIDDEN, i[9]) +
        "  %%broadcast.%d = %s broadcast(bf16[%d]{0} %%%s), dimensions={2}\n" % (i[11], hl, HIDDEN, p1) +
        "  ROOT %%multiply.%d = %s multiply(%s %%convert.%d, %s %%broadcast.%d), %s\n}\n\n" % (
            m.uid(), hl, hl, i[10], hl, i[11], m.meta(layer, "input_layernorm/mul_weight")))
    # SiLU(gate) * up.
    n = "fused_silu_mul.%d" % m.uid()
    names["silu"] = n
    f = "bf16[%d,%d,%d]" % (BATCH, SEQ, FFN // m.tp)
    fl = f + "{2,1,0}"
    p0, p1 = "param_0.%d" % m.uid(), "param_1.%d" % m.uid()
    i = [m.uid() for _ in range(5)]
    m.write(
        "%%%s (%s: %s, %s: %s) -> %s {\n" % (n, p0, f, p1, f, f) +
        "  %%%s = %s parameter(0)\n" % (p0, fl) +
        "  %%%s = %s parameter(1)\n" % (p1, fl) +
        "  %%logistic.%d = %s logistic(%s %%%s), %s\n" % (i[0], fl, fl, p0, m.meta(layer, "mlp/act_fn/logistic")) +
        "  %%multiply.%d = %s multiply(%s %%%s, %s %%logistic.%d), %s\n" % (i[1], fl, fl, p0, fl, i[0], m.meta(layer, "mlp/act_fn/mul")) +
        "  ROOT %%multiply.%d = %s multiply(%s %%multiply.%d, %s %%%s), %s\n}\n\n" % (
            i[2], fl, fl, i[1], fl, p1, m.meta(layer, "mlp/mul")))
    # Residual add (two parameters, with a tuple root as multi-output fusions).
    n = "fused_residual.%d" % m.uid()
    names["residual"] = n
    p0, p1 = "param_0.%d" % m.uid(), "param_1.%d" % m.uid()
    i = [m.uid() for _ in range(3)]
    m.write(
        "%%%s (%s: %s, %s: %s) -> (%s, f32[]) {\n" % (n, p0, h, p1, h, h) +
        "  %%%s = %s parameter(0)\n" % (p0, hl) +
        "  %%%s = %s parameter(1)\n" % (p1, hl) +
        "  %%add.%d = %s add(%s %%%s, %s %%%s), %s\n" % (i[0], hl, hl, p0, hl, p1, m.meta(layer, "add")) +
        "  %%constant.%d = f32[] constant(1)\n" % i[1] +
        "  ROOT %%tuple.%d = (%s, f32[]) tuple(%s %%add.%d, f32[] %%constant.%d)\n}\n\n" % (
            i[2], hl, hl, i[0], i[1]))
    # Rotary embedding on q/k (sin/cos tables, slices, concatenate).
    n = "fused_rope.%d" % m.uid()
    names["rope"] = n
    q = "bf16[%d,%d,%d,%d]" % (BATCH, SEQ, HEADS // m.tp, HEAD_DIM)
    ql = q + "{3,2,1,0}"
    half = HEAD_DIM // 2
    hq = "bf16[%d,%d,%d,%d]{3,2,1,0}" % (BATCH, SEQ, HEADS // m.tp, half)
    p0, p1 = "param_0.%d" % m.uid(), "param_1.%d" % m.uid()
    i = [m.uid() for _ in range(11)]
    m.write(
        "%%%s (%s: %s, %s: f32[%d,%d]) -> %s {\n" % (n, p0, q, p1, SEQ, HEAD_DIM, q) +
        "  %%%s = %s parameter(0)\n" % (p0, ql) +
        "  %%%s = f32[%d,%d]{1,0} parameter(1)\n" % (p1, SEQ, HEAD_DIM) +
        "  %%slice.%d = %s slice(%s %%%s), slice={[0:%d], [0:%d], [0:%d], [0:%d]}, %s\n" % (
            i[0], hq, ql, p0, BATCH, SEQ, HEADS // m.tp, half, m.meta(layer, "self_attn/rotary_emb/slice")) +
        "  %%slice.%d = %s slice(%s %%%s), slice={[0:%d], [0:%d], [0:%d], [%d:%d]}, %s\n" % (
            i[1], hq, ql, p0, BATCH, SEQ, HEADS // m.tp, half, HEAD_DIM, m.meta(layer, "self_attn/rotary_emb/slice")) +
        "  %%negate.%d = %s negate(%s %%slice.%d), %s\n" % (i[2], hq, hq, i[1], m.meta(layer, "self_attn/rotary_emb/neg")) +
        "  %%concatenate.%d = %s concatenate(%s %%negate.%d, %s %%slice.%d), dimensions={3}, %s\n" % (
            i[3], ql, hq, i[2], hq, i[0], m.meta(layer, "self_attn/rotary_emb/concatenate[dimension=3]")) +
        "  %%convert.%d = bf16[%d,%d]{1,0} convert(f32[%d,%d]{1,0} %%%s)\n" % (i[4], SEQ, HEAD_DIM, SEQ, HEAD_DIM, p1) +
        "  %%cosine.%d = bf16[%d,%d]{1,0} cosine(bf16[%d,%d]{1,0} %%convert.%d), %s\n" % (
            i[5], SEQ, HEAD_DIM, SEQ, HEAD_DIM, i[4], m.meta(layer, "self_attn/rotary_emb/cos")) +
        "  %%sine.%d = bf16[%d,%d]{1,0} sine(bf16[%d,%d]{1,0} %%convert.%d), %s\n" % (
            i[6], SEQ, HEAD_DIM, SEQ, HEAD_DIM, i[4], m.meta(layer, "self_attn/rotary_emb/sin")) +
        "  %%broadcast.%d = %s broadcast(bf16[%d,%d]{1,0} %%cosine.%d), dimensions={1,3}\n" % (i[7], ql, SEQ, HEAD_DIM, i[5]) +
        "  %%broadcast.%d = %s broadcast(bf16[%d,%d]{1,0} %%sine.%d), dimensions={1,3}\n" % (i[8], ql, SEQ, HEAD_DIM, i[6]) +
        "  %%multiply.%d = %s multiply(%s %%%s, %s %%broadcast.%d), %s\n" % (
            i[9], ql, ql, p0, ql, i[7], m.meta(layer, "self_attn/rotary_emb/mul")) +
        "  %%multiply.%d = %s multiply(%s %%concatenate.%d, %s %%broadcast.%d), %s\n" % (
            i[10], ql, ql, i[3], ql, i[8], m.meta(layer, "self_attn/rotary_emb/mul")) +
        "  ROOT %%add.%d = %s add(%s %%multiply.%d, %s %%multiply.%d), %s\n}\n\n" % (
            m.uid(), ql, ql, i[9], ql, i[10], m.meta(layer, "self_attn/rotary_emb/add")))
    # AdamW update of one weight shard (multi-output: param, m, v).
    n = "fused_adamw.%d" % m.uid()
    names["adamw"] = n
    p = ["param_%d.%d" % (k, m.uid()) for k in range(4)]
    i = [m.uid() for _ in range(14)]
    t = "f32[%d,%d]" % (HIDDEN, HIDDEN // m.tp)
    tl = t + "{1,0}"
    m.write(
        "%%%s (%s: %s, %s: %s, %s: %s, %s: %s) -> (%s, %s, %s) {\n" % (
            n, p[0], t, p[1], t, p[2], t, p[3], t, t, t, t) +
        "".join("  %%%s = %s parameter(%d)\n" % (p[k], tl, k) for k in range(4)) +
        "  %%constant.%d = f32[] constant(0.9)\n" % i[0] +
        "  %%broadcast.%d = %s broadcast(f32[] %%constant.%d), dimensions={}\n" % (i[1], tl, i[0]) +
        "  %%multiply.%d = %s multiply(%s %%%s, %s %%broadcast.%d), %s\n" % (
            i[2], tl, tl, p[1], tl, i[1], m.meta(layer, "optimizer/adamw/mul_b1")) +
        "  %%add.%d = %s add(%s %%multiply.%d, %s %%%s), %s\n" % (
            i[3], tl, tl, i[2], tl, p[3], m.meta(layer, "optimizer/adamw/add_m")) +
        "  %%constant.%d = f32[] constant(0.999)\n" % i[4] +
        "  %%broadcast.%d = %s broadcast(f32[] %%constant.%d), dimensions={}\n" % (i[5], tl, i[4]) +
        "  %%multiply.%d = %s multiply(%s %%%s, %s %%%s), %s\n" % (
            i[6], tl, tl, p[3], tl, p[3], m.meta(layer, "optimizer/adamw/square")) +
        "  %%multiply.%d = %s multiply(%s %%%s, %s %%broadcast.%d), %s\n" % (
            i[7], tl, tl, p[2], tl, i[5], m.meta(layer, "optimizer/adamw/mul_b2")) +
        "  %%add.%d = %s add(%s %%multiply.%d, %s %%multiply.%d), %s\n" % (
            i[8], tl, tl, i[7], tl, i[6], m.meta(layer, "optimizer/adamw/add_v")) +
        "  %%sqrt.%d = %s sqrt(%s %%add.%d), %s\n" % (i[9], tl, tl, i[8], m.meta(layer, "optimizer/adamw/sqrt")) +
        "  %%divide.%d = %s divide(%s %%add.%d, %s %%sqrt.%d), %s\n" % (
            i[10], tl, tl, i[3], tl, i[9], m.meta(layer, "optimizer/adamw/div")) +
        "  %%subtract.%d = %s subtract(%s %%%s, %s %%divide.%d), %s\n" % (
            i[11], tl, tl, p[0], tl, i[10], m.meta(layer, "optimizer/adamw/sub")) +
        "  ROOT %%tuple.%d = (%s, %s, %s) tuple(%s %%subtract.%d, %s %%add.%d, %s %%add.%d)\n}\n\n" % (
            i[12], tl, tl, tl, tl, i[11], tl, i[3], tl, i[8]))
    return names


def layer_body(m, layer, x, names, weights):
    """One decoder layer in ENTRY; `x` is the residual stream (sequence
    sharded: [B, S/tp, H]); returns the name of the layer's output."""
    tp = m.tp
    sl = SEQ // tp
    xs = "bf16[%d,%d,%d]{2,1,0}" % (BATCH, sl, HIDDEN)
    full = "bf16[%d,%d,%d]{2,1,0}" % (BATCH, SEQ, HIDDEN)
    qkv = "bf16[%d,%d,%d]{2,1,0}" % (BATCH, SEQ, 3 * HIDDEN // tp)
    att = "bf16[%d,%d,%d]{2,1,0}" % (BATCH, SEQ, HIDDEN // tp)
    ffl = "bf16[%d,%d,%d]{2,1,0}" % (BATCH, SEQ, FFN // tp)
    w = ["%%get-tuple-element.%d" % m.uid() for _ in range(6)]
    out = []
    a = out.append
    wshapes = ["bf16[%d]{0}" % HIDDEN, "bf16[%d,%d]{1,0}" % (HIDDEN, 3 * HIDDEN // tp),
               "bf16[%d,%d]{1,0}" % (HIDDEN // tp, HIDDEN), "bf16[%d]{0}" % HIDDEN,
               "bf16[%d,%d]{1,0}" % (HIDDEN, 2 * FFN // tp), "bf16[%d,%d]{1,0}" % (FFN // tp, HIDDEN)]
    for k in range(6):
        a("  %s = %s get-tuple-element((%s) %s), index=%d, %s\n" % (
            w[k], wshapes[k], m.wshapes, weights, k, m.meta(layer, "params/get")))
    # Sequence-parallel all-gather of the normed input (async start/done).
    norm = m.uid()
    a("  %%fusion.%d = %s fusion(%s %s, bf16[%d]{0} %s), kind=kLoop, calls=%%%s, %s, backend_config=%s\n" % (
        norm, xs, xs, x, HIDDEN, w[0], names["norm"],
        m.meta(layer, "input_layernorm/mul"), backend("fusion")))
    ags = m.uid()
    a("  %%all-gather-start.%d = (%s, %s) all-gather-start(%s %%fusion.%d), channel_id=%d, replica_groups=%s, dimensions={1}, use_global_device_ids=true, %s, backend_config=%s\n" % (
        ags, xs, full, xs, norm, m.channel(), groups_form(tp, layer),
        m.meta(layer, "self_attn/all_gather[axis_name=tp]"), backend("collective")))
    agd = m.uid()
    a("  %%all-gather-done.%d = %s all-gather-done((%s, %s) %%all-gather-start.%d), %s\n" % (
        agd, full, xs, full, ags, m.meta(layer, "self_attn/all_gather[axis_name=tp]")))
    # Q/K/V projection, attention core (custom call), output projection.
    dqkv = m.uid()
    a("  %%dot.%d = %s dot(%s %%all-gather-done.%d, bf16[%d,%d]{1,0} %s), lhs_contracting_dims={2}, rhs_contracting_dims={0}, %s, backend_config=%s\n" % (
        dqkv, qkv, full, agd, HIDDEN, 3 * HIDDEN // tp, w[1],
        m.meta(layer, "self_attn/qkv_proj/dot_general[dimension_numbers=(([2], [0]), ([], [])) precision=None preferred_element_type=bfloat16]"),
        backend("gemm")))
    q4 = "bf16[%d,%d,%d,%d]{3,2,1,0}" % (BATCH, SEQ, HEADS // tp, HEAD_DIM)
    sq, ro, cat, sb = m.uid(), m.uid(), m.uid(), m.uid()
    a("  %%slice.%d = bf16[%d,%d,%d]{2,1,0} slice(%s %%dot.%d), slice={[0:%d], [0:%d], [0:%d]}\n" % (
        sq, BATCH, SEQ, 2 * HIDDEN // tp, qkv, dqkv, BATCH, SEQ, 2 * HIDDEN // tp))
    a("  %%fusion.%d = %s fusion(%s %%bitcast.%d, f32[%d,%d]{1,0} %%%s), kind=kLoop, calls=%%%s, %s, backend_config=%s\n" % (
        ro, q4, q4, sb, SEQ, HEAD_DIM, m.rope_table, names["rope"],
        m.meta(layer, "self_attn/rotary_emb"), backend("fusion")))
    a("  %%bitcast.%d = %s bitcast(bf16[%d,%d,%d]{2,1,0} %%slice.%d)\n" % (sb, q4, BATCH, SEQ, 2 * HIDDEN // tp, sq))
    a("  %%concatenate.%d = %s concatenate(%s %%fusion.%d, %s %%fusion.%d), dimensions={3}, %s\n" % (
        cat, "bf16[%d,%d,%d,%d]{3,2,1,0}" % (BATCH, SEQ, HEADS // tp, 2 * HEAD_DIM), q4, ro, q4, ro,
        m.meta(layer, "self_attn/concatenate")))
    bc = m.uid()
    a("  %%bitcast.%d = bf16[%d,%d,3,%d,%d]{4,3,2,1,0} bitcast(%s %%dot.%d)\n" % (
        bc, BATCH, SEQ, HEADS // tp, HEAD_DIM, qkv, dqkv))
    fa = m.uid()
    a("  %%custom-call.%d = (%s, f32[%d,%d,%d]{2,1,0}) custom-call(bf16[%d,%d,3,%d,%d]{4,3,2,1,0} %%bitcast.%d), custom_call_target=\"AwsNeuronFlashAttention\", api_version=API_VERSION_STATUS_RETURNING, %s, backend_config={\"causal\":true,\"scale\":0.088388347648318,\"dropout\":0,\"tile\":[128,512]}\n" % (
        fa, att, BATCH, HEADS // tp, SEQ, BATCH, SEQ, HEADS // tp, HEAD_DIM, bc,
        m.meta(layer, "self_attn/flash_attention")))
    g0 = m.uid()
    a("  %%get-tuple-element.%d = %s get-tuple-element((%s, f32[%d,%d,%d]{2,1,0}) %%custom-call.%d), index=0\n" % (
        g0, att, att, BATCH, HEADS // tp, SEQ, fa))
    do = m.uid()
    a("  %%dot.%d = %s dot(%s %%get-tuple-element.%d, bf16[%d,%d]{1,0} %s), lhs_contracting_dims={2}, rhs_contracting_dims={0}, %s, backend_config=%s\n" % (
        do, full, att, g0, HIDDEN // tp, HIDDEN, w[2],
        m.meta(layer, "self_attn/o_proj/dot_general[dimension_numbers=(([2], [0]), ([], [])) precision=None preferred_element_type=bfloat16]"),
        backend("gemm")))
    # Reduce-scatter back to the sequence-sharded stream (explicit or iota).
    rs = m.uid()
    a("  %%reduce-scatter.%d = %s reduce-scatter(%s %%dot.%d), channel_id=%d, replica_groups=%s, use_global_device_ids=true, dimensions={1}, to_apply=%%region_add_bf16, %s, backend_config=%s\n" % (
        rs, xs, full, do, m.channel(), groups_form(tp, layer + 3),
        m.meta(layer, "self_attn/psum_scatter[axis_name=tp scatter_dimension=1 tiled=True]"),
        backend("collective", "sync")))
    r1 = m.uid()
    a("  %%fusion.%d = (%s, f32[]) fusion(%s %s, %s %%reduce-scatter.%d), kind=kLoop, calls=%%%s, %s, backend_config=%s\n" % (
        r1, xs, xs, x, xs, rs, names["residual"], m.meta(layer, "add"), backend("fusion")))
    h1 = m.uid()
    a("  %%get-tuple-element.%d = %s get-tuple-element((%s, f32[]) %%fusion.%d), index=0\n" % (h1, xs, xs, r1))
    # MLP: synchronous all-gather written without operand shapes (resolved
    # through the name table), gate/up dot, SiLU fusion, down dot.
    n2 = m.uid()
    a("  %%fusion.%d = %s fusion(%s %%get-tuple-element.%d, bf16[%d]{0} %s), kind=kLoop, calls=%%%s, %s, backend_config=%s\n" % (
        n2, xs, xs, h1, HIDDEN, w[3], names["norm"],
        m.meta(layer, "post_attention_layernorm/mul"), backend("fusion")))
    ag2 = m.uid()
    a("  %%all-gather.%d = %s all-gather(%%fusion.%d), channel_id=%d, replica_groups=%s, dimensions={1}, use_global_device_ids=true, %s, backend_config=%s\n" % (
        ag2, full, n2, m.channel(), groups_form(tp, layer + 1),
        m.meta(layer, "mlp/all_gather[axis_name=tp]"), backend("collective", "sync")))
    gu = m.uid()
    a("  %%dot.%d = bf16[%d,%d,%d]{2,1,0} dot(%s %%all-gather.%d, bf16[%d,%d]{1,0} %s), lhs_contracting_dims={2}, rhs_contracting_dims={0}, %s, backend_config=%s\n" % (
        gu, BATCH, SEQ, 2 * FFN // tp, full, ag2, HIDDEN, 2 * FFN // tp, w[4],
        m.meta(layer, "mlp/gate_up_proj/dot_general[dimension_numbers=(([2], [0]), ([], [])) precision=None preferred_element_type=bfloat16]"),
        backend("gemm")))
    s0, s1 = m.uid(), m.uid()
    a("  %%slice.%d = %s slice(bf16[%d,%d,%d]{2,1,0} %%dot.%d), slice={[0:%d], [0:%d], [0:%d]}\n" % (
        s0, ffl, BATCH, SEQ, 2 * FFN // tp, gu, BATCH, SEQ, FFN // tp))
    a("  %%slice.%d = %s slice(bf16[%d,%d,%d]{2,1,0} %%dot.%d), slice={[0:%d], [0:%d], [%d:%d]}\n" % (
        s1, ffl, BATCH, SEQ, 2 * FFN // tp, gu, BATCH, SEQ, FFN // tp, 2 * FFN // tp))
    sm = m.uid()
    a("  %%fusion.%d = %s fusion(%s %%slice.%d, %s %%slice.%d), kind=kLoop, calls=%%%s, %s, backend_config=%s\n" % (
        sm, ffl, ffl, s0, ffl, s1, names["silu"], m.meta(layer, "mlp/mul"), backend("fusion")))
    dd = m.uid()
    a("  %%dot.%d = %s dot(%s %%fusion.%d, bf16[%d,%d]{1,0} %s), lhs_contracting_dims={2}, rhs_contracting_dims={0}, %s, backend_config=%s\n" % (
        dd, full, ffl, sm, FFN // tp, HIDDEN, w[5],
        m.meta(layer, "mlp/down_proj/dot_general[dimension_numbers=(([2], [0]), ([], [])) precision=None preferred_element_type=bfloat16]"),
        backend("gemm")))
    rs2 = m.uid()
    a("  %%reduce-scatter.%d = %s reduce-scatter(%s %%dot.%d), channel_id=%d, replica_groups=%s, use_global_device_ids=true, dimensions={1}, to_apply=%%region_add_bf16, %s, backend_config=%s\n" % (
        rs2, xs, full, dd, m.channel(), groups_form(tp, layer + 2),
        m.meta(layer, "mlp/psum_scatter[axis_name=tp scatter_dimension=1 tiled=True]"),
        backend("collective", "sync")))
    r2 = m.uid()
    a("  %%fusion.%d = (%s, f32[]) fusion(%s %%get-tuple-element.%d, %s %%reduce-scatter.%d), kind=kLoop, calls=%%%s, %s, backend_config=%s\n" % (
        r2, xs, xs, h1, xs, rs2, names["residual"], m.meta(layer, "add"), backend("fusion")))
    h2, loss = m.uid(), m.uid()
    a("  %%get-tuple-element.%d = %s get-tuple-element((%s, f32[]) %%fusion.%d), index=0\n" % (h2, xs, xs, r2))
    a("  %%get-tuple-element.%d = f32[] get-tuple-element((%s, f32[]) %%fusion.%d), index=1\n" % (loss, xs, r2))
    # Tuple all-reduce of per-layer statistics (explicit or iota groups).
    ar = m.uid()
    a("  %%all-reduce.%d = (f32[], f32[%d]{0}) all-reduce(f32[] %%get-tuple-element.%d, f32[%d]{0} %%%s), channel_id=%d, replica_groups=%s, use_global_device_ids=true, to_apply=%%region_add_f32, %s, backend_config=%s\n" % (
        ar, HIDDEN, loss, HIDDEN, m.stats, m.channel(), groups_form(tp, layer + 3),
        m.meta(layer, "psum[axes=('tp',)]"), backend("collective", "sync")))
    # A ring exchange every layer (pipelined KV / context parallel style).
    cps = m.uid()
    a("  %%collective-permute-start.%d = (%s, %s, u32[], u32[]) collective-permute-start(%s %%get-tuple-element.%d), channel_id=%d, source_target_pairs=%s, %s, backend_config=%s\n" % (
        cps, xs, xs, xs, h2, m.channel(), ring_pairs(tp),
        m.meta(layer, "ppermute[perm=ring]"), backend("collective")))
    cpd = m.uid()
    a("  %%collective-permute-done.%d = %s collective-permute-done((%s, %s, u32[], u32[]) %%collective-permute-start.%d), %s\n" % (
        cpd, xs, xs, xs, cps, m.meta(layer, "ppermute[perm=ring]")))
    t = "f32[%d,%d]{1,0}" % (HIDDEN, HIDDEN // tp)
    for k in range(3):
        opt, g = m.uid(), m.uid()
        a("  %%fusion.%d = (%s, %s, %s) fusion(%s %%%s, %s %%%s, %s %%%s, %s %%%s), kind=kLoop, calls=%%%s, %s, backend_config=%s\n" % (
            opt, t, t, t, t, m.opt_state[0], t, m.opt_state[1], t, m.opt_state[2], t, m.opt_state[3],
            names["adamw"], m.meta(layer, "optimizer/adamw/update_%d" % k), backend("fusion")))
        a("  %%get-tuple-element.%d = %s get-tuple-element((%s, %s, %s) %%fusion.%d), index=%d\n" % (
            g, t, t, t, t, opt, k))
    res = m.uid()
    a("  %%add.%d = %s add(%s %%get-tuple-element.%d, %s %%collective-permute-done.%d), %s\n" % (
        res, xs, xs, h2, xs, cpd, m.meta(layer, "add_ring")))
    m.write("".join(out))
    return "%%add.%d" % res


def write_module(path, tp, target_bytes, layers):
    with open(path, "w", encoding="ascii", newline="\n", buffering=1 << 20) as f:
        m = Module(f, tp)
        xs = "bf16[%d,%d,%d]" % (BATCH, SEQ // tp, HIDDEN)
        wshapes = ("bf16[%d]{0}, bf16[%d,%d]{1,0}, bf16[%d,%d]{1,0}, /*index=3*/"
                   "bf16[%d]{0}, bf16[%d,%d]{1,0}, bf16[%d,%d]{1,0}" % (
                       HIDDEN, HIDDEN, 3 * HIDDEN // tp, HIDDEN // tp, HIDDEN,
                       HIDDEN, HIDDEN, 2 * FFN // tp, FFN // tp, HIDDEN))
        m.wshapes = wshapes
        m.write(
            "HloModule jit_train_step, is_scheduled=true, entry_computation_layout="
            "{(%s{2,1,0}, (%s))->%s{2,1,0}}, allow_spmd_sharding_propagation_to_parameters={false}, "
            "allow_spmd_sharding_propagation_to_output={true}, replica_count=1, num_partitions=%d, "
            "frontend_attributes={fingerprint_before_lhs=\"4f0c3b3e2a9d1c7e8b6a5f4d3c2b1a09\"}\n\n" % (
                xs, wshapes, xs, tp))
        m.write("// Generated by bench/gen_hlo.py for topolint benchmarks.\n\n")
        m.write("%region_add_f32 (Arg_0.1: f32[], Arg_1.2: f32[]) -> f32[] {\n"
                "  %Arg_0.1 = f32[] parameter(0)\n  %Arg_1.2 = f32[] parameter(1)\n"
                "  ROOT %add.3 = f32[] add(f32[] %Arg_0.1, f32[] %Arg_1.2), "
                "metadata={op_name=\"jit(train_step)/jit(main)/reduce_sum\"}\n}\n\n")
        m.write("%region_add_bf16 (Arg_0.4: bf16[], Arg_1.5: bf16[]) -> bf16[] {\n"
                "  %Arg_0.4 = bf16[] parameter(0)\n  %Arg_1.5 = bf16[] parameter(1)\n"
                "  ROOT %add.6 = bf16[] add(bf16[] %Arg_0.4, bf16[] %Arg_1.5)\n}\n\n")
        # Fused computations come first in XLA dumps; generating them per layer
        # up front would need two passes, so each layer's fused computations
        # precede an ENTRY-like computation `%layer_block.N` per layer group,
        # and ENTRY calls the blocks in order (as a scan unrolled into calls).
        blocks = []
        layer = 0
        per_block = 8
        while True:
            if layers is not None and layer >= layers:
                break
            if layers is None and m.written >= target_bytes and layer > 0:
                break
            block = "layer_block.%d" % m.uid()
            count = per_block if layers is None else min(per_block, layers - layer)
            names = [fused_computations(m, layer + k) for k in range(count)]
            m.write("%%%s (x.%d: %s, w.%d: (%s)) -> %s {\n" % (
                block, layer, xs, layer, wshapes, xs))
            m.write("  %%x.%d = %s{2,1,0} parameter(0)\n" % (layer, xs))
            m.write("  %%w.%d = (%s) parameter(1)\n" % (layer, wshapes))
            m.stats = "constant.%d" % m.uid()
            m.write("  %%%s = f32[%d]{0} constant({...})\n" % (m.stats, HIDDEN))
            m.rope_table = "iota.%d" % m.uid()
            m.write("  %%%s = f32[%d,%d]{1,0} iota(), iota_dimension=0\n" % (m.rope_table, SEQ, HEAD_DIM))
            m.opt_state = ["broadcast.%d" % m.uid() for _ in range(4)]
            zero = m.uid()
            m.write("  %%constant.%d = f32[] constant(0)\n" % zero)
            for name in m.opt_state:
                m.write("  %%%s = f32[%d,%d]{1,0} broadcast(f32[] %%constant.%d), dimensions={}\n" % (
                    name, HIDDEN, HIDDEN // tp, zero))
            x, weights = "%%x.%d" % layer, "%%w.%d" % layer
            for k in range(count):
                x = layer_body(m, layer, x, names[k], weights)
                layer += 1
            m.write("  ROOT %%copy.%d = %s{2,1,0} copy(%s{2,1,0} %s)\n}\n\n" % (
                m.uid(), xs, xs, x))
            blocks.append(block)
        m.write("ENTRY %%main.%d (Arg_0.1: %s, Arg_1.2: (%s)) -> %s {\n" % (
            m.uid(), xs, wshapes, xs))
        m.write("  %%Arg_0.1 = %s{2,1,0} parameter(0), sharding={devices=[1,%d,1]<=[%d]}, %s\n" % (
            xs, tp, tp, 'metadata={op_name="hidden_states"}'))
        m.write("  %%Arg_1.2 = (%s) parameter(1), sharding={{replicated}, {devices=[1,%d]<=[%d]}, "
                "{devices=[%d,1]<=[%d]}, {replicated}, {devices=[1,%d]<=[%d]}, {devices=[%d,1]<=[%d]}}\n" % (
                    wshapes, tp, tp, tp, tp, tp, tp, tp, tp))
        x = "%Arg_0.1"
        for b in blocks:
            c = m.uid()
            m.write("  %%call.%d = %s{2,1,0} call(%s{2,1,0} %s, (%s) %%Arg_1.2), to_apply=%%%s\n" % (
                c, xs, xs, x, wshapes, b))
            x = "%%call.%d" % c
        m.write("  ROOT %%copy.%d = %s{2,1,0} copy(%s{2,1,0} %s)\n}\n\n" % (
            m.uid(), xs, xs, x))
        return m.written, layer


def dense_layer(m, layer, x, weights):
    """One decoder layer written straight into a huge ENTRY computation, with
    a collective every ~1.5 KB: async all-reduce start/done pairs over tuples,
    all-gather-start/done, reduce-scatter, collective-permute and tuple
    all-reduces, as an unrolled decoder at a high tensor-parallel degree.
    Returns the name of the layer's output."""
    tp = m.tp
    xs = "bf16[%d,%d,%d]{2,1,0}" % (BATCH, SEQ // tp, HIDDEN)
    full = "bf16[%d,%d,%d]{2,1,0}" % (BATCH, SEQ, HIDDEN)
    st = "f32[%d]{0}" % HIDDEN
    out = []
    a = out.append

    def meta(what):
        m.source_line = (m.source_line * 7 + 13) % 2400 + 1
        return 'metadata={op_name="%s/layers.%d/%s" source_file="model.py" source_line=%d}' % (
            "jit(step)", layer, what, m.source_line)

    def elementwise(x, count):
        # The non-collective work between two collectives.
        for k in range(count):
            op = ("multiply", "add", "subtract", "maximum")[k % 4]
            y = "%%%s.%d" % (op, m.uid())
            a("  %s = %s %s(%s %s, %s %s), %s\n" % (
                y, xs, op, xs, x, xs, x, meta("mlp/%s" % op)))
            x = y
        return x

    for block in range(2):
        x = elementwise(x, 9)
        # Sequence-parallel all-gather (async, tuple-shaped start).
        n = m.uid()
        a("  %%fusion.%d = %s fusion(%s %s, %s), kind=kLoop, calls=%%fused_norm, %s\n" % (
            n, xs, xs, x, weights, meta("norm")))
        ags = m.uid()
        a("  %%all-gather-start.%d = (%s, %s) all-gather-start(%s %%fusion.%d), channel_id=%d, replica_groups=%s, dimensions={1}, use_global_device_ids=true, %s, backend_config=%s\n" % (
            ags, xs, full, xs, n, m.channel(), groups_form(tp, layer + block),
            meta("all_gather"), backend("collective")))
        agd = m.uid()
        a("  %%all-gather-done.%d = %s all-gather-done((%s, %s) %%all-gather-start.%d)\n" % (
            agd, full, xs, full, ags))
        d = m.uid()
        a("  %%dot.%d = %s dot(%s %%all-gather-done.%d, %s), lhs_contracting_dims={2}, rhs_contracting_dims={0}, %s\n" % (
            d, full, full, agd, weights, meta("proj/dot_general")))
        # Reduce-scatter back to the sharded stream.
        x = elementwise(x, 3)
        rs = m.uid()
        a("  %%reduce-scatter.%d = %s reduce-scatter(%s %%dot.%d), channel_id=%d, replica_groups=%s, use_global_device_ids=true, dimensions={1}, to_apply=%%region_add_bf16, %s\n" % (
            rs, xs, full, d, m.channel(), groups_form(tp, layer + block + 1),
            meta("psum_scatter")))
        # Async all-reduce of a tuple of statistics, start/done.
        r0, r1 = m.uid(), m.uid()
        a("  %%reduce.%d = f32[] reduce(%s %%reduce-scatter.%d, f32[] %%zero), dimensions={0,1,2}, to_apply=%%region_add_f32\n" % (
            r0, xs, rs))
        a("  %%convert.%d = %s convert(%s %%reduce-scatter.%d)\n" % (r1, st, xs, rs))
        ars = m.uid()
        a("  %%all-reduce-start.%d = (f32[], %s) all-reduce-start(f32[] %%reduce.%d, %s %%convert.%d), channel_id=%d, replica_groups=%s, use_global_device_ids=true, to_apply=%%region_add_f32, %s, backend_config=%s\n" % (
            ars, st, r0, st, r1, m.channel(), groups_form(tp, layer + block + 2),
            meta("psum"), backend("collective")))
        ard = m.uid()
        a("  %%all-reduce-done.%d = (f32[], %s) all-reduce-done((f32[], %s) %%all-reduce-start.%d)\n" % (
            ard, st, st, ars))
        g = m.uid()
        a("  %%get-tuple-element.%d = %s get-tuple-element((f32[], %s) %%all-reduce-done.%d), index=1\n" % (
            g, st, st, ard))
        # A synchronous tuple all-reduce and a ring exchange.
        x = elementwise(x, 3)
        ar = m.uid()
        a("  %%all-reduce.%d = (f32[], %s) all-reduce(f32[] %%reduce.%d, %s %%get-tuple-element.%d), channel_id=%d, replica_groups=%s, use_global_device_ids=true, to_apply=%%region_add_f32, %s\n" % (
            ar, st, r0, st, g, m.channel(), groups_form(tp, layer + block + 3),
            meta("psum_stats")))
        x = elementwise(x, 3)
        cps = m.uid()
        a("  %%collective-permute-start.%d = (%s, %s, u32[], u32[]) collective-permute-start(%s %%reduce-scatter.%d), channel_id=%d, source_target_pairs=%s, %s\n" % (
            cps, xs, xs, xs, rs, m.channel(), ring_pairs(tp), meta("ppermute")))
        cpd = m.uid()
        a("  %%collective-permute-done.%d = %s collective-permute-done((%s, %s, u32[], u32[]) %%collective-permute-start.%d)\n" % (
            cpd, xs, xs, xs, cps))
        x = "%%add.%d" % m.uid()
        a("  %s = %s add(%s %%reduce-scatter.%d, %s %%collective-permute-done.%d), %s\n" % (
            x, xs, xs, rs, xs, cpd, meta("residual")))
    m.write("".join(out))
    return x


def write_dense_module(path, tp, target_bytes):
    """One huge ENTRY computation with a collective every ~1.5 KB."""
    with open(path, "w", encoding="ascii", newline="\n", buffering=1 << 20) as f:
        m = Module(f, tp)
        xs = "bf16[%d,%d,%d]" % (BATCH, SEQ // tp, HIDDEN)
        w = "bf16[%d,%d]{1,0}" % (HIDDEN, HIDDEN)
        m.write("HloModule jit_decode_dense, is_scheduled=true, replica_count=1, "
                "num_partitions=%d\n\n" % tp)
        m.write("%region_add_f32 (a: f32[], b: f32[]) -> f32[] {\n"
                "  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
                "  ROOT %add = f32[] add(f32[] %a, f32[] %b)\n}\n\n")
        m.write("%region_add_bf16 (c: bf16[], d: bf16[]) -> bf16[] {\n"
                "  %c = bf16[] parameter(0)\n  %d = bf16[] parameter(1)\n"
                "  ROOT %add.1 = bf16[] add(bf16[] %c, bf16[] %d)\n}\n\n")
        m.write("%%fused_norm (p0: %s, p1: %s) -> %s {\n"
                "  %%p0 = %s{2,1,0} parameter(0)\n  %%p1 = %s parameter(1)\n"
                "  ROOT %%copy.2 = %s{2,1,0} copy(%s{2,1,0} %%p0)\n}\n\n" % (
                    xs, w, xs, xs, w, xs, xs))
        m.write("ENTRY %%main.%d (Arg_0.1: %s, Arg_1.2: %s) -> %s {\n" % (
            m.uid(), xs, w, xs))
        m.write("  %%Arg_0.1 = %s{2,1,0} parameter(0)\n" % xs)
        m.write("  %%Arg_1.2 = %s parameter(1)\n" % w)
        m.write("  %zero = f32[] constant(0)\n")
        x = "%Arg_0.1"
        weights = "%s %%Arg_1.2" % w
        layer = 0
        while m.written < target_bytes:
            x = dense_layer(m, layer, x, weights)
            layer += 1
        m.write("  ROOT %%copy.%d = %s{2,1,0} copy(%s{2,1,0} %s)\n}\n" % (
            m.uid(), xs, xs, x))
        return m.written, layer


def write_large_groups(path, devices, ops):
    with open(path, "w", encoding="ascii", newline="\n", buffering=1 << 20) as f:
        f.write("HloModule large_groups, replica_count=1, num_partitions=%d\n\n" % devices)
        f.write("%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
                "  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n}\n\n")
        f.write("ENTRY %main (p: f32[1024]) -> f32[1024] {\n  %p.0 = f32[1024]{0} parameter(0)\n")
        side = 1
        while side * side < devices:
            side *= 2
        forms = ["[1,%d]<=[%d]" % (devices, devices)]
        if side * side == devices:
            forms.append("[1,%d]<=[%d,%d]T(0,1)" % (devices, side, side))
        for k in range(ops):
            f.write("  %%p.%d = f32[1024]{0} all-reduce(f32[1024]{0} %%p.%d), channel_id=%d, "
                    "replica_groups=%s, use_global_device_ids=true, to_apply=%%add, "
                    "metadata={op_name=\"psum\" source_file=\"big.py\" source_line=%d}\n" % (
                        k + 1, k, k + 1, forms[k % len(forms)], k + 1))
        f.write("  ROOT %%r = f32[1024]{0} copy(f32[1024]{0} %%p.%d)\n}\n" % ops)


def write_explicit_group(path, ids):
    """One all-reduce over one explicit group {0,...,ids-1}."""
    with open(path, "w", encoding="ascii", newline="\n", buffering=1 << 20) as f:
        f.write("HloModule explicit_group, replica_count=1, num_partitions=%d\n\n" % ids)
        f.write("%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
                "  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n}\n\n")
        f.write("ENTRY %main (p: f32[1024]) -> f32[1024] {\n  %p.0 = f32[1024]{0} parameter(0)\n")
        f.write("  ROOT %p.1 = f32[1024]{0} all-reduce(f32[1024]{0} %p.0), channel_id=1, "
                "replica_groups={{")
        f.write(",".join(str(i) for i in range(ids)))
        f.write("}}, use_global_device_ids=true, to_apply=%add\n}\n")


def write_def_json(path, devices, group, pairs):
    cc = {"replica_groups": [[list(range(group))]] if group else [],
          "src_target_pairs": pairs,
          "#rank_world_size": devices}
    doc = {"name": "sg00", "version": "2.0",
           "CCInfo": cc,
           "nc_count": 1,
           "var": {"input0": {"type": "input", "size": 67108864, "dtype": "bfloat16"}}}
    with open(path, "w", encoding="ascii") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def write_config(path, tp):
    doc = {"tensor_parallel_size": tp, "data_parallel_size": 1,
           "enable_expert_parallel": False, "all2all_backend": None,
           "neuron_config": {"attention_dp_size": 1, "embedding_dp_size": 1,
                             "mlp_dp_size": 1, "lm_head_dp_size": 1,
                             "logical_nc_config": 1}}
    with open(path, "w", encoding="ascii") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--size-mb", type=float, default=1.0,
                    help="approximate size of model.hlo in MiB (default 1)")
    ap.add_argument("--layers", type=int, default=None,
                    help="exact number of decoder layers (overrides --size-mb)")
    ap.add_argument("--tp", type=int, default=32,
                    help="tensor-parallel degree = num_partitions (default 32)")
    ap.add_argument("--large-groups", type=int, default=0, metavar="N",
                    help="write N all-reduces over one group of --devices ids")
    ap.add_argument("--explicit-ids", type=int, default=0, metavar="N",
                    help="write one all-reduce over one explicit group of N ids")
    ap.add_argument("--dense", action="store_true",
                    help="write one huge ENTRY computation with a collective "
                         "every ~1.5 KB instead (decoder unrolled at high TP)")
    ap.add_argument("--devices", type=int, default=65536,
                    help="group size for --large-groups (default 65536)")
    args = ap.parse_args()
    if args.tp < 2 or SEQ % args.tp or FFN % args.tp or HEADS % args.tp:
        ap.error("--tp must be >= 2 and divide %d, %d and %d" % (SEQ, FFN, HEADS))
    os.makedirs(args.out, exist_ok=True)
    hlo = os.path.join(args.out, "model.hlo")
    if args.large_groups > 0:
        write_large_groups(hlo, args.devices, args.large_groups)
        write_def_json(os.path.join(args.out, "def.json"), args.devices,
                       args.devices, [])
        print("%s: %d all-reduces over [1,%d]" % (hlo, args.large_groups, args.devices))
        return 0
    if args.explicit_ids > 0:
        write_explicit_group(hlo, args.explicit_ids)
        write_def_json(os.path.join(args.out, "def.json"), args.explicit_ids,
                       0, [])
        print("%s: one all-reduce over {0..%d}" % (hlo, args.explicit_ids - 1))
        return 0
    if args.dense:
        size, layers = write_dense_module(hlo, args.tp,
                                          int(args.size_mb * (1 << 20)))
        ring = [[i, (i + 1) % args.tp] for i in range(args.tp)]
        write_def_json(os.path.join(args.out, "def.json"), args.tp, args.tp, ring)
        write_config(os.path.join(args.out, "vllm_config.json"), args.tp)
        print("%s: %d bytes, %d layers, %d collectives (dense)" % (
            hlo, size, layers, 10 * layers))
        return 0
    size, layers = write_module(hlo, args.tp, int(args.size_mb * (1 << 20)),
                                args.layers)
    ring = [[i, (i + 1) % args.tp] for i in range(args.tp)]
    write_def_json(os.path.join(args.out, "def.json"), args.tp, args.tp, ring)
    write_config(os.path.join(args.out, "vllm_config.json"), args.tp)
    print("%s: %d bytes, %d layers, %d collectives" % (hlo, size, layers, 6 * layers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
