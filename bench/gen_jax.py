#!/usr/bin/env python3
"""Writes a collective-dense module shaped like a real JAX/XLA dump.

Issue 46 asks that the fast-path budget be judged on a dense module shaped
like the dumps JAX and MaxText users hand to topolint, not only on
bench/gen_hlo.py --dense (whose lines are short and plain). This one is
modelled on two public dumps found in the code index (their repositories
are not named there): an XLA GPU dump of `jit_matmul_with_elementwise`
(Triton fusions whose `backend_config` JSON carries `operation_queue_id`,
`fusion_backend_config` and `block_level_fusion_config`, metadata with
`source_end_line` / `source_column`), and a JAX `jit(train_step)` dump of a
diffusion transformer (`op_name` paths of 200-300 bytes through
`transpose(jvp(...))/.../while/body/checkpoint/...`, `scheduling_name` in
the metadata, a fused computation per fusion). What it holds:

  - every instruction with `metadata={op_name=... source_file=...
    source_line=... source_end_line=... source_column=...
    source_end_column=...}`, long op_name paths;
  - `sharding={...}` on parameters, constants and most ENTRY instructions
    (tiled `devices=[1,32,1]<=[32]`, explicit device lists, replicated);
  - TPU tiled layouts (`{2,1,0:T(8,128)(2,1)}`), `/*index=N*/` in tuple
    shapes, `constant({...})`, `frontend_attributes={...}`;
  - a fused computation per fusion, each fusion with a large backend_config;
  - a collective every ~1.9 KB of the whole file (all-gather start/done,
    reduce-scatter, all-reduce, all-reduce start/done, collective-permute),
    in iota and explicit replica-group forms.

The unit (model.hlo, def.json, vllm_config.json) is clean: topolint reports
no finding (exit 0), so a run measures checking, not printing. Output is
deterministic. Python 3 stdlib only.

  python3 bench/gen_jax.py --out /tmp/jax --size-mb 300
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_hlo  # noqa: E402  (Module, groups_form, ring_pairs, sidecars)

TP = 32
B, S, H = 4, 2048, 4096
PATH = ("jit(train_step)/jit(main)/transpose(jvp(Transformer.loss))/"
        "Transformer.forward/decoder/while/body/checkpoint/"
        "rematted_computation/layers/layers.forward")
FILES = ("/opt/maxtext/src/MaxText/layers/linears.py",
         "/opt/maxtext/src/MaxText/layers/attentions.py",
         "/usr/local/lib/python3.10/dist-packages/flax/linen/linear.py",
         "/opt/maxtext/src/MaxText/layers/normalizations.py")
TILE = ":T(8,128)(2,1)"
XS = "bf16[%d,%d,%d]{2,1,0%s}" % (B, S // TP, H, TILE)  # sequence sharded
XF = "bf16[%d,%d,%d]{2,1,0%s}" % (B, S, H, TILE)  # gathered
W = "bf16[%d,%d]{1,0%s}" % (H, H, TILE)
ST = "f32[%d]{0:T(1024)}" % H
SH3 = "sharding={devices=[1,%d,1]<=[%d]}" % (TP, TP)
SH3X = "sharding={devices=[1,%d,1]%s}" % (TP, ",".join(str(i) for i in range(TP)))
SH2 = "sharding={devices=[%d,1]<=[%d]}" % (TP, TP)
REP = "sharding={replicated}"


def backend(kind, tiles):
    """A GPU-style backend_config as XLA prints it (one line of JSON)."""
    return ('backend_config={"operation_queue_id":"0","wait_on_operation_queues":[],'
            '"fusion_backend_config":{"kind":"%s","block_level_fusion_config":'
            '{"num_warps":"4","output_tiles":[{"sizes":["%d","%d","128"]}],'
            '"num_ctas":1,"num_stages":1,"is_tma_allowed":false,'
            '"is_warp_specialization_allowed":false}},"force_earliest_schedule":'
            'false,"reification_cost":[],"device_type":"DEVICE_TYPE_INVALID",'
            '"native_emitter_backend_config":{}}' % (kind, tiles, tiles * 2))


class Jax(gen_hlo.Module):
    def meta(self, layer, what, sched=None):
        self.source_line = (self.source_line * 7 + 13) % 2400 + 1
        line = self.source_line
        col = line % 60 + 4
        extra = ' scheduling_name="%s"' % sched if sched else ""
        return ('metadata={op_name="%s/layers_%d/%s" source_file="%s" '
                'source_line=%d source_end_line=%d source_column=%d '
                'source_end_column=%d%s}' % (
                    PATH, layer, what, FILES[line % len(FILES)], line, line,
                    col, col + 7, extra))


def fused(comps, m, layer, what):
    """A fused computation of its own for one fusion; returns its name."""
    name = "%%fused_computation.%d" % m.uid()
    p0, p1, y, z = (m.uid() for _ in range(4))
    comps.write(
        "%s (param_0.%d: %s, param_1.%d: %s) -> %s {\n"
        "  %%param_0.%d = %s parameter(0), metadata={scheduling_name=\"param_0.%d\"}\n"
        "  %%param_1.%d = %s parameter(1), metadata={scheduling_name=\"param_1.%d\"}\n"
        "  %%convert.%d = f32[%d,%d,%d]{2,1,0} convert(%%param_0.%d), %s\n"
        "  ROOT %%convert.%d = %s convert(%%convert.%d), %s\n}\n\n" % (
            name, p0, XS, p1, W, XS, p0, XS, p0, p1, W, p1, y, B, S // TP, H,
            p0, m.meta(layer, what + "/convert_element_type"), z, XS, y,
            m.meta(layer, what + "/convert_element_type")))
    return name


def layer_text(comps, m, layer, x, w):
    """One decoder layer of the ENTRY computation: 10 collectives."""
    out = []
    a = out.append
    for block in range(2):
        # Element-wise work between collectives, sharded, with metadata.
        for k in range(1, 2):
            op = ("multiply", "tanh")[k]
            y = "%%%s.%d" % (op, m.uid())
            args = x if op == "tanh" else "%s, %s" % (x, x)
            a("  %s = %s %s(%s), %s, %s\n" % (
                y, XS, op, args, SH3 if k else SH3X, m.meta(layer, "mlp/" + op)))
            x = y
        f = "%%fusion.%d" % m.uid()
        a("  %s = %s fusion(%s, %s), kind=kCustom, calls=%s, %s, %s, %s\n" % (
            f, XS, x, w, fused(comps, m, layer, "mlp/wi_0"), SH3,
            m.meta(layer, "mlp/wi_0/dot_general", f[1:]), backend("__triton", 16)))
        # Sequence-parallel all-gather, async.
        ags, agd, d = m.uid(), m.uid(), m.uid()
        a("  %%all-gather-start.%d = (%s, %s) all-gather-start(%s), channel_id=%d, "
          "replica_groups=%s, dimensions={1}, use_global_device_ids=true, "
          "frontend_attributes={_scheduling_group_id=\"%d\"}, %s, "
          "backend_config={\"operation_queue_id\":\"0\",\"wait_on_operation_queues\":[],"
          "\"collective_backend_config\":{\"is_sync\":false,\"no_parallel_custom_call\":"
          "false},\"force_earliest_schedule\":false}\n" % (
              ags, XS, XF, f, m.channel(), gen_hlo.groups_form(TP, layer + block),
              layer, m.meta(layer, "attention/all_gather")))
        a("  %%all-gather-done.%d = %s all-gather-done(%%all-gather-start.%d), %s\n" % (
            agd, XF, ags, m.meta(layer, "attention/all_gather")))
        a("  %%dot.%d = %s dot(%%all-gather-done.%d, %s), lhs_contracting_dims={2}, "
          "rhs_contracting_dims={0}, %s, %s\n" % (
              d, XF, agd, w, m.meta(layer, "attention/query/dot_general"),
              backend("__triton_gemm", 32)))
        rs, c, ar, t, g, cp = (m.uid() for _ in range(6))
        a("  %%reduce-scatter.%d = %s reduce-scatter(%%dot.%d), channel_id=%d, "
          "replica_groups=%s, use_global_device_ids=true, dimensions={1}, "
          "to_apply=%%region_add_bf16, %s\n" % (
              rs, XS, d, m.channel(), gen_hlo.groups_form(TP, layer + block + 1),
              m.meta(layer, "attention/out/psum_scatter")))
        a("  %%constant.%d = s32[%d]{0} constant({%s}), %s\n" % (
            c, TP // 4, ", ".join(str(i * 16) for i in range(TP // 4)), REP))
        a("  %%all-reduce.%d = %s all-reduce(%%reduce-scatter.%d), channel_id=%d, "
          "replica_groups=%s, use_global_device_ids=true, to_apply=%%region_add_bf16, "
          "%s\n" % (ar, XS, rs, m.channel(), gen_hlo.groups_form(TP, layer + block + 2),
                    m.meta(layer, "mlp/psum")))
        ars, ard = m.uid(), m.uid()
        a("  %%all-reduce-start.%d = %s all-reduce-start(%%all-reduce.%d), "
          "channel_id=%d, replica_groups=%s, use_global_device_ids=true, "
          "to_apply=%%region_add_bf16, %s, backend_config={\"operation_queue_id\":"
          "\"0\",\"wait_on_operation_queues\":[],\"collective_backend_config\":"
          "{\"is_sync\":true,\"no_parallel_custom_call\":false},"
          "\"force_earliest_schedule\":false}\n" % (
              ars, XS, ar, m.channel(), gen_hlo.groups_form(TP, layer + block + 3),
              m.meta(layer, "mlp/psum_1")))
        a("  %%all-reduce-done.%d = %s all-reduce-done(%%all-reduce-start.%d), %s\n" % (
            ard, XS, ars, m.meta(layer, "mlp/psum_1")))
        a("  %%tuple.%d = (%s, %s, /*index=2*/s32[%d]{0}) tuple(%%all-reduce-done.%d, "
          "%%reduce-scatter.%d, %%constant.%d), %s\n" % (
              t, XS, XS, TP // 4, ar, rs, c, m.meta(layer, "mlp/tuple")))
        a("  %%get-tuple-element.%d = %s get-tuple-element(%%tuple.%d), index=0, %s, %s\n" % (
            g, XS, t, SH3, m.meta(layer, "mlp/get_tuple_element")))
        a("  %%collective-permute.%d = %s collective-permute(%%get-tuple-element.%d), "
          "channel_id=%d, source_target_pairs=%s, %s\n" % (
              cp, XS, g, m.channel(), gen_hlo.ring_pairs(TP),
              m.meta(layer, "pipeline/ppermute")))
        x = "%%add.%d" % m.uid()
        a("  %s = %s add(%%get-tuple-element.%d, %%collective-permute.%d), %s, %s\n" % (
            x, XS, g, cp, SH3, m.meta(layer, "residual/add")))
    m.write("".join(out))
    return x


def write_module(path, target_bytes):
    with tempfile.TemporaryFile("w+", encoding="ascii") as comps, \
            tempfile.TemporaryFile("w+", encoding="ascii") as entry:
        m = Jax(entry, TP)
        w = "%Arg_1.2"
        x = "%Arg_0.1"
        layer = 0
        while m.written < target_bytes * 0.8:  # the fused computations: ~20%
            x = layer_text(comps, m, layer, x, w)
            layer += 1
        with open(path, "w", encoding="ascii", newline="\n",
                  buffering=1 << 20) as f:
            f.write("HloModule jit_train_step, is_scheduled=true, "
                    "entry_computation_layout={(%s, %s)->%s}, "
                    "allow_spmd_sharding_propagation_to_output={true}, "
                    "num_partitions=%d\n\n" % (XS, W, XS, TP))
            f.write("%region_add_bf16 (c: bf16[], d: bf16[]) -> bf16[] {\n"
                    "  %c = bf16[] parameter(0)\n  %d = bf16[] parameter(1)\n"
                    "  ROOT %add.1 = bf16[] add(%c, %d)\n}\n\n")
            comps.seek(0)
            for chunk in iter(lambda: comps.read(1 << 20), ""):
                f.write(chunk)
            f.write("ENTRY %%main.1 (Arg_0.1: %s, Arg_1.2: %s) -> %s {\n" % (XS, W, XS))
            f.write("  %%Arg_0.1 = %s parameter(0), %s, %s\n" % (
                XS, SH3, m.meta(0, "args[0]")))
            f.write("  %%Arg_1.2 = %s parameter(1), %s, %s\n" % (
                W, SH2, m.meta(0, "params/kernel")))
            entry.seek(0)
            for chunk in iter(lambda: entry.read(1 << 20), ""):
                f.write(chunk)
            f.write("  ROOT %%copy.%d = %s copy(%s), %s\n}\n" % (m.uid(), XS, x, SH3))
        return os.path.getsize(path), layer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--size-mb", type=float, default=1.0,
                    help="approximate size of model.hlo in MiB (default 1)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    hlo = os.path.join(args.out, "model.hlo")
    size, layers = write_module(hlo, int(args.size_mb * (1 << 20)))
    ring = [[i, (i + 1) % TP] for i in range(TP)]
    gen_hlo.write_def_json(os.path.join(args.out, "def.json"), TP, TP, ring)
    gen_hlo.write_config(os.path.join(args.out, "vllm_config.json"), TP)
    print("%s: %d bytes, %d layers, %d collectives (JAX-shaped dense)" % (
        hlo, size, layers, 10 * layers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
