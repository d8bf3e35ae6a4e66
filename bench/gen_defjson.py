#!/usr/bin/env python3
"""Writes a NEFF def.json whose CCInfo topology is large, for bench/run.sh.

    python3 bench/gen_defjson.py --out DIR --ranks 1000x1000

writes DIR/def.json with `"CCInfo": {"replica_groups": [[[...]]]}` of one
topology of GROUPS groups of SIZE ranks (--ranks GROUPSxSIZE): contiguous
groups 0..SIZE-1, SIZE..2*SIZE-1, ... (a tensor-parallel mesh), a ring of
src_target_pairs over group 0, and #rank_world_size = GROUPS * SIZE. A
small var table stands in for the rest of a real def.json. The file is
clean for `topolint check` (exit 0). Written as json.dumps writes it, with
--indent N as json.dumps(indent=N) (one rank per line) instead.
"""
import argparse
import json
import os


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="directory to write into")
    ap.add_argument("--ranks", default="1000x1000",
                    help="GROUPSxSIZE of the one topology (default 1000x1000)")
    ap.add_argument("--indent", type=int, default=None,
                    help="pretty-print with this indent")
    args = ap.parse_args()
    groups, size = (int(x) for x in args.ranks.lower().split("x"))
    world = groups * size
    rg = [[list(range(g * size, (g + 1) * size)) for g in range(groups)]]
    pairs = [[r, (r + 1) % size] for r in range(min(size, 64))]
    doc = {
        "var": {f"input{i}": {"type": "input", "var_id": i, "size": 4096}
                for i in range(8)},
        "dma_queue": [],
        "CCInfo": {
            "replica_groups": rg,
            "src_target_pairs": pairs,
            "#rank_world_size": world,
        },
    }
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "def.json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=args.indent)
    print(f"{path}: {os.path.getsize(path)} bytes, [1][{groups}][{size}]")


if __name__ == "__main__":
    main()
