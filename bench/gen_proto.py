#!/usr/bin/env python3
"""Converts a module written by bench/gen_hlo.py into a binary HloModuleProto.

    python3 bench/gen_proto.py IN.hlo OUT.pb [--gzip OUT.pb.gz]

Every instruction of the text becomes an HloInstructionProto with the real
field numbers of openxla/xla (xla/service/hlo.proto, xla/xla_data.proto):
name 1, opcode 2, shape 3 (ShapeProto: element_type 2, dimensions 3,
tuple_shapes 4, layout 5 with minor_to_major 1), metadata 7 (OpMetadata:
op_name 2, source_file 3, source_line 4), parameter_number 9, fusion_kind 11,
tuple_index 13, dimensions 14, channel_id 26, id 35, operand_ids 36,
called_computation_ids 38, backend_config 43, replica_groups 49
(ReplicaGroup: replica_ids 1), source_target_pairs 52 (SourceTarget:
source 1, target 2), use_global_device_ids 71 and collective_device_list 87
(CollectiveDeviceListProto: replica_groups 1, iota_replica_group_list 2 with
IotaReplicaGroupListProto num_replica_groups 1, num_devices_per_group 2,
iota_reshape_dims 3, iota_transpose_perm 4). Computations are
HloComputationProto (name 1, instructions 2, id 5, root_id 6); the module
(name 1, entry_computation_name 2, computations 3, entry_computation_id 6)
ends with device_assignment 15 (DeviceAssignmentProto: replica_count 1,
computation_count 2), which carries the header's replica_count and
num_partitions as a compiled module does.

Replica groups alternate between the two encodings XLA writes: the 1st, 3rd,
5th, ... collective with groups uses the legacy repeated `replica_groups`
(49), its iota list expanded to explicit groups; the 2nd, 4th, ... uses
`collective_device_list` (87), an iota list nested as
`iota_replica_group_list`, an explicit one as its `replica_groups`.

Only the instruction forms gen_hlo.py writes are understood (it is a
benchmark generator, not an HLO parser). Python 3 stdlib only; output is
deterministic.
"""

import argparse
import gzip
import re
import sys

# PrimitiveType numbers (xla_data.proto).
TYPES = {"pred": 1, "s8": 2, "s16": 3, "s32": 4, "s64": 5, "u8": 6, "u16": 7,
         "u32": 8, "u64": 9, "f16": 10, "f32": 11, "f64": 12, "bf16": 16,
         "token": 17}
TUPLE = 13


def varint(v):
    if v < 0:
        v += 1 << 64
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def tag(field, wire_type):
    return varint((field << 3) | wire_type)


def f_varint(field, v):
    return tag(field, 0) + varint(v)


def f_bytes(field, b):
    if isinstance(b, str):
        b = b.encode()
    return tag(field, 2) + varint(len(b)) + b


def f_packed(field, values):
    return f_bytes(field, b"".join(varint(v) for v in values))


def split_top(text, sep=","):
    """Splits at `sep` outside (), [] and {}."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def closing(text, i):
    """Index of the bracket closing the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] in "([{":
            depth += 1
        elif text[j] in ")]}":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced: " + text[:80])


ARRAY = re.compile(r"([a-z0-9]+)\[([0-9,]*)\](?:\{([0-9,]*)\})?$")
_shape_cache = {}


def shape_proto(text):
    cached = _shape_cache.get(text)
    if cached is not None:
        return cached
    if text.startswith("("):
        body = b"".join(f_bytes(4, shape_proto(t))
                        for t in split_top(text[1:-1]))
        out = f_varint(2, TUPLE) + body
    else:
        m = ARRAY.match(text)
        if m is None:
            raise ValueError("shape: " + text)
        out = f_varint(2, TYPES[m.group(1)])
        dims = [int(d) for d in m.group(2).split(",") if d]
        if dims:
            out += f_packed(3, dims)
        if m.group(3):
            layout = [int(d) for d in m.group(3).split(",") if d]
            out += f_bytes(5, f_packed(1, layout))
    _shape_cache[text] = out
    return out


def iota_ids(num_groups, group_size, dims, perm):
    """The ids of [G,S]<=[dims]T(perm), group by group."""
    total = num_groups * group_size
    if not perm:
        perm = list(range(len(dims)))
    strides = [1] * len(dims)
    for i in range(len(dims) - 2, -1, -1):
        strides[i] = strides[i + 1] * dims[i + 1]
    tdims = [dims[p] for p in perm]
    ids = []
    for flat in range(total):
        idx, rest = [], flat
        for d in reversed(tdims):
            idx.append(rest % d)
            rest //= d
        idx.reverse()
        ids.append(sum(idx[k] * strides[perm[k]] for k in range(len(perm))))
    return [ids[g * group_size:(g + 1) * group_size]
            for g in range(num_groups)]


IOTA = re.compile(r"\[(\d+),(\d+)\]<=\[([0-9,]+)\](?:T\(([0-9,]+)\))?$")
_group_cache = {}


def group_fields(text, legacy):
    key = (text, legacy)
    cached = _group_cache.get(key)
    if cached is not None:
        return cached
    m = IOTA.match(text)
    if m is not None:
        g, s = int(m.group(1)), int(m.group(2))
        dims = [int(d) for d in m.group(3).split(",")]
        perm = [int(d) for d in m.group(4).split(",")] if m.group(4) else []
        if legacy:
            groups = iota_ids(g, s, dims, perm)
        else:
            iota = f_varint(1, g) + f_varint(2, s) + f_packed(3, dims)
            if perm:
                iota += f_packed(4, perm)
            out = f_bytes(87, f_bytes(2, iota))
            _group_cache[key] = out
            return out
    else:
        groups = [[int(v) for v in grp[1:-1].split(",") if v]
                  for grp in split_top(text[1:-1])]
    encoded = [f_bytes(1, f_packed(1, grp) if grp else b"") for grp in groups]
    if legacy:
        out = b"".join(tag(49, 2) + e[1:] for e in encoded)
    else:
        out = f_bytes(87, b"".join(encoded))
    _group_cache[key] = out
    return out


INSTR = re.compile(r"\s*(ROOT )?%([^ ]+) = ")
COMP = re.compile(r"(ENTRY )?%([^ ]+) \(")
OPERAND = re.compile(r"%([^ ,)]+)")
METADATA = re.compile(
    r'op_name="([^"]*)" source_file="([^"]*)" source_line=(\d+)')


class Converter:
    def __init__(self):
        self.next_id = 1
        self.comp_ids = {}
        self.collectives = 0
        self.module_name = ""
        self.replicas = 1
        self.partitions = 1
        self.computations = []
        self.entry = None
        self.comp = None

    def header(self, line):
        self.module_name = line.split()[1].rstrip(",")
        for key, value in re.findall(r"(\w+)=(\w+)", line):
            if key == "replica_count":
                self.replicas = int(value)
            elif key == "num_partitions":
                self.partitions = int(value)

    def begin(self, line):
        m = COMP.match(line)
        cid = len(self.comp_ids) + 1
        self.comp_ids[m.group(2)] = cid
        self.comp = {"name": m.group(2), "id": cid, "body": [], "ids": {},
                     "root": 0}
        if m.group(1):
            self.entry = self.comp

    def end(self):
        c = self.comp
        body = [f_bytes(1, c["name"])] + c["body"]
        body.append(f_varint(5, c["id"]))
        body.append(f_varint(6, c["root"]))
        self.computations.append(f_bytes(3, b"".join(body)))
        self.comp = None

    def attr_value(self, attrs, key):
        at = attrs.find(key + "=")
        if at < 0:
            return None
        v = at + len(key) + 1
        if attrs[v] in "{[":
            end = closing(attrs, v)
            # an iota list: [G,S]<=[dims] and an optional T(perm)
            if attrs.startswith("<=", end + 1):
                end = closing(attrs, end + 3)
                if attrs.startswith("T(", end + 1):
                    end = closing(attrs, end + 2)
            return attrs[v:end + 1]
        end = v
        while end < len(attrs) and attrs[end] not in ", ":
            end += 1
        return attrs[v:end]

    def instruction(self, line):
        m = INSTR.match(line)
        name = m.group(2)
        rest = line[m.end():]
        if rest.startswith("("):
            e = closing(rest, 0)
        else:
            e = rest.index(" ") - 1
        shape = rest[:e + 1]
        rest = rest[e + 2:]
        paren = rest.index("(")
        opcode = rest[:paren]
        close = closing(rest, paren)
        operands = rest[paren + 1:close]
        attrs = rest[close + 1:]
        comp = self.comp
        iid = self.next_id
        self.next_id += 1
        comp["ids"][name] = iid
        if m.group(1):
            comp["root"] = iid
        out = [f_bytes(1, name), f_bytes(2, opcode),
               f_bytes(3, shape_proto(shape))]
        md = METADATA.search(attrs)
        if md is not None:
            out.append(f_bytes(7, f_bytes(2, md.group(1)) +
                               f_bytes(3, md.group(2)) +
                               f_varint(4, int(md.group(3)))))
        if opcode == "parameter":
            out.append(f_varint(9, int(operands)))
        kind = self.attr_value(attrs, "kind")
        if kind is not None:
            out.append(f_bytes(11, kind))
        index = self.attr_value(attrs, "index")
        if index is not None:
            out.append(f_varint(13, int(index)))
        dims = self.attr_value(attrs, "dimensions")
        if dims is not None:
            out.append(f_packed(14, [int(d) for d in dims[1:-1].split(",")
                                     if d]))
        channel = self.attr_value(attrs, "channel_id")
        if channel is not None:
            out.append(f_varint(26, int(channel)))
        out.append(f_varint(35, iid))
        if opcode != "parameter" and opcode != "constant":
            ids = [comp["ids"][o] for o in OPERAND.findall(operands)]
            if ids:
                out.append(f_packed(36, ids))
        called = self.attr_value(attrs, "to_apply") or \
            self.attr_value(attrs, "calls")
        if called is not None:
            out.append(f_packed(38, [self.comp_ids[called[1:]]]))
        backend = attrs.find("backend_config=")
        if backend >= 0:
            out.append(f_bytes(43, attrs[backend + len("backend_config="):]))
        groups = self.attr_value(attrs, "replica_groups")
        if groups is not None:
            out.append(group_fields(groups, self.collectives % 2 == 0))
            self.collectives += 1
        pairs = self.attr_value(attrs, "source_target_pairs")
        if pairs is not None:
            for p in split_top(pairs[1:-1]):
                s, t = p[1:-1].split(",")
                out.append(f_bytes(52, f_varint(1, int(s)) +
                                   f_varint(2, int(t))))
        if "use_global_device_ids=true" in attrs:
            out.append(f_varint(71, 1))
        comp["body"].append(f_bytes(2, b"".join(out)))

    def module(self):
        entry = self.entry or {"name": "", "id": 0}
        device_assignment = f_varint(1, self.replicas) + \
            f_varint(2, self.partitions)
        return b"".join([f_bytes(1, self.module_name),
                         f_bytes(2, entry["name"])] + self.computations +
                        [f_varint(6, entry["id"]),
                         f_bytes(15, device_assignment)])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--gzip", help="also write this gzip-compressed copy")
    args = ap.parse_args()
    conv = Converter()
    with open(args.input, encoding="utf-8") as f:
        for line in f:
            if line.startswith("HloModule "):
                conv.header(line)
            elif line.startswith("}"):
                conv.end()
            elif line.startswith("%") or line.startswith("ENTRY "):
                conv.begin(line)
            elif line.strip():
                conv.instruction(line.rstrip("\n"))
    data = conv.module()
    conv.computations = []
    with open(args.output, "wb") as f:
        f.write(data)
    if args.gzip:
        with open(args.gzip, "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6,
                               mtime=0) as gz:
                gz.write(data)
    print(f"{args.output}: {len(data)} bytes, {conv.next_id - 1} instructions,"
          f" {conv.collectives} collectives with replica groups")


if __name__ == "__main__":
    sys.exit(main())
