#!/usr/bin/env python3
"""Writes a large, clean StableHLO module for topolint benchmarks.

The output directory receives model.mlir: what `jax.jit(f).lower(x)
.as_text()` prints for an unrolled SPMD decoder over 32 devices
(mhlo.num_partitions = 32), with the module's Shardy mesh, per layer a
block of non-collective ops (dot_general, broadcast_in_dim, add, reduce,
long `loc(...)` suffixes) and the collectives of sequence-parallel tensor
parallelism in generic form: all_gather (`<{...}>` properties),
reduce_scatter and all_reduce with their reduction regions,
collective_permute over a ring, all with `channel_handle` > 0 and
`use_global_device_ids`, one group of all 32 devices (dense or hex). The
location aliases follow the module, as MLIR prints them.

The module is consistent: topolint reports no finding on it (exit 0), so
the benchmark measures reading and checking, not printing findings.

  python3 bench/gen_mlir.py --out DIR --size-mb 300
"""
import argparse
import os
import struct

DEVICES = 32


def hex_group():
    data = b"".join(struct.pack("<q", i) for i in range(DEVICES))
    return '"0x' + data.hex().upper() + '"'


def layer(i, handle):
    ids = ", ".join(str(d) for d in range(DEVICES))
    dense = "dense<[[%s]]> : tensor<1x%dxi64>" % (ids, DEVICES)
    hexd = "dense<%s> : tensor<1x%dxi64>" % (hex_group(), DEVICES)
    ring = ", ".join("[%d, %d]" % (d, (d + 1) % DEVICES) for d in range(DEVICES))
    pairs = "dense<[%s]> : tensor<%dx2xi64>" % (ring, DEVICES)
    loc = "loc(#loc%d)" % (i + 2)
    v = "%%l%d" % i
    out = []
    out.append(
        '    %sag = "stablehlo.all_gather"(%%x) <{all_gather_dim = 0 : i64, '
        "channel_handle = #stablehlo.channel_handle<handle = %d, type = 1>, "
        "replica_groups = %s, use_global_device_ids}> : (tensor<4x128xbf16>) "
        "-> tensor<128x128xbf16> %s" % (v, handle, dense, loc))
    for k in range(12):
        out.append(
            "    %s_%d = stablehlo.dot_general %sag, %%w, contracting_dims = "
            "[1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x128xbf16>, "
            "tensor<128x128xbf16>) -> tensor<128x128xbf16> %s" % (v, k, v, loc))
        out.append(
            "    %s_b%d = stablehlo.broadcast_in_dim %%bias, dims = [1] : "
            "(tensor<128xbf16>) -> tensor<128x128xbf16> %s" % (v, k, loc))
        out.append(
            "    %s_a%d = stablehlo.add %s_%d, %s_b%d : tensor<128x128xbf16> %s"
            % (v, k, v, k, v, k, loc))
    out.append(
        '    %srs = "stablehlo.reduce_scatter"(%s_a11) <{channel_handle = '
        "#stablehlo.channel_handle<handle = %d, type = 1>, replica_groups = %s, "
        "scatter_dimension = 0 : i64, use_global_device_ids}> ({\n"
        "    ^bb0(%%a: tensor<bf16>, %%b: tensor<bf16>):\n"
        "      %%s = stablehlo.add %%a, %%b : tensor<bf16>\n"
        "      stablehlo.return %%s : tensor<bf16>\n"
        "    }) : (tensor<128x128xbf16>) -> tensor<4x128xbf16> %s"
        % (v, v, handle + 1, hexd, loc))
    out.append(
        '    %sar = "stablehlo.all_reduce"(%srs) <{channel_handle = '
        "#stablehlo.channel_handle<handle = %d, type = 1>, replica_groups = %s, "
        "use_global_device_ids}> ({\n"
        "    ^bb0(%%a: tensor<bf16>, %%b: tensor<bf16>):\n"
        "      %%s = stablehlo.add %%a, %%b : tensor<bf16>\n"
        "      stablehlo.return %%s : tensor<bf16>\n"
        "    }) : (tensor<4x128xbf16>) -> tensor<4x128xbf16> %s"
        % (v, v, handle + 2, dense, loc))
    out.append(
        '    %scp = "stablehlo.collective_permute"(%sar) <{channel_handle = '
        "#stablehlo.channel_handle<handle = %d, type = 1>, source_target_pairs "
        "= %s}> : (tensor<4x128xbf16>) -> tensor<4x128xbf16> %s"
        % (v, v, handle + 3, pairs, loc))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--size-mb", type=float, default=300)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    target = int(args.size_mb * (1 << 20))
    path = os.path.join(args.out, "model.mlir")
    layers = 0
    with open(path, "w") as f:
        f.write('#loc1 = loc("train.py":1:1)\n')
        f.write("module @jit_train_step attributes {mhlo.num_partitions = %d : "
                "i32, mhlo.num_replicas = 1 : i32} {\n" % DEVICES)
        f.write('  sdy.mesh @mesh = <["data"=4, "model"=8]>\n')
        f.write("  func.func public @main(%x: tensor<4x128xbf16>, %w: "
                "tensor<128x128xbf16>, %bias: tensor<128xbf16>) -> "
                "tensor<4x128xbf16> {\n")
        size = 0
        while size < target:
            text = layer(layers, 4 * layers + 1)
            f.write(text)
            size += len(text)
            layers += 1
        f.write("    return %%l%dcp : tensor<4x128xbf16>\n  }\n} loc(#loc1)\n"
                % (layers - 1))
        for i in range(layers):
            f.write('#loc%d = loc("model.py":%d:5)\n' % (i + 2, 10 + i))
    print("%s: %d layers, %d collectives" % (path, layers, 4 * layers))


if __name__ == "__main__":
    main()
