#!/usr/bin/env bash
# Regenerates the directory trees of fixtures/layouts/ (compile cache,
# compiler workdir, NxDI compiled-model directory with an NxD bucket, XLA
# dump), .neff archives included (scripts/make-neff.py). Modules are binary
# HloModuleProtos where the real tools write binary (*.hlo_module.pb,
# *.hlo.pb, NxD's model/graph.hlo), written from text by
# build/topolint_hlo_to_proto; XLA dumps stay text. Then run
# scripts/update-golden.sh fixtures/layouts/* and read the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
L=fixtures/layouts
TOOL=${TOPOLINT_HLO_TO_PROTO:-build/topolint_hlo_to_proto}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# hlo FILE NAME GROUPS: an 8-partition module with one all-reduce, binary
# when FILE is named as a binary module.
hlo() {
  mkdir -p "$(dirname "$1")"
  local text=$1
  case "$1" in
    *.pb | */graph.hlo | */wrapped_neff.hlo) text=$TMP/$2.hlo ;;
  esac
  cat > "$text" <<HLO
HloModule $2${HEADER-, replica_count=1, num_partitions=8}

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(%x, %y)
}

ENTRY %main (p: f32[16,128]) -> f32[16,128] {
  %p = f32[16,128]{1,0} parameter(0)
  ROOT %ar = f32[16,128]{1,0} all-reduce(%p), channel_id=1, replica_groups=$3, use_global_device_ids=true, to_apply=%add
}
HLO
  if [ "$text" != "$1" ]; then "$TOOL" "$text" "$1" >/dev/null; fi
}

# neff FILE GROUPS: a .neff whose one graph declares topology[0] = GROUPS.
neff() {
  local m="$TMP/m$RANDOM$RANDOM"
  mkdir -p "$m/sg00" "$(dirname "$1")"
  printf '{\n  "CCInfo": {\n    "replica_groups": [%s]\n  }\n}\n' "$2" \
    > "$m/sg00/def.json"
  printf '{"graphs": [{"definition": "sg00/def.json", "name": "sg00"}], "target": "trn1", "version": "0.1"}\n' \
    > "$m/kelf-0.json"
  python3 scripts/make-neff.py "$m" "$1" --lnc 1 >/dev/null
}

G4='{{0,4},{1,5},{2,6},{3,7}}'
J4='[[0, 4], [1, 5], [2, 6], [3, 7]]'
G2='{{0,1},{2,3},{4,5},{6,7}}'
J2='[[0, 1], [2, 3], [4, 5], [6, 7]]'
G8='{{0,1,2,3,4,5,6,7}}'
J8='[[0, 1, 2, 3, 4, 5, 6, 7]]'

# Everything but the goldens (expected*.txt) is rewritten.
for c in compile-cache compiler-workdir nxdi-compiled xla-dump; do
  if [ -d "$L/$c" ]; then
    find "$L/$c" -mindepth 1 -maxdepth 1 ! -name 'expected*.txt' -exec rm -rf {} +
  fi
done

# A Neuron persistent cache: two finished entries (one whose NEFF disagrees
# with its module), a failed one, a locked one and an incomplete one.
C=$L/compile-cache/neuronxcc-2.21.18209.0+043b1bf7
E=$C/MODULE_12486829708343293975+d41d8cd9
hlo "$E/model.hlo_module.pb" ok "$G4"; neff "$E/model.neff" "$J4"
echo '["--target=trn1", "--model-type=transformer", "-O1"]' \
  > "$E/compile_flags.json"
: > "$E/model.done"
E=$C/MODULE_50a122f44c378e1567a4+ede6753c
hlo "$E/model.hlo.pb" mismatch "$G4"; neff "$E/model.neff" "$J2"
echo '["--target=trn2", "--lnc=1"]' > "$E/compile_flags.json"
: > "$E/model.done"
E=$C/MODULE_7731065542861410339+d41d8cd9
hlo "$E/model.hlo_module.pb" failed "$G4"
echo '["--target=trn1"]' > "$E/compile_flags.json"
echo 'ERROR: compilation failed' > "$E/model.log"
E=$C/MODULE_9f0c2d8e7a6b5c4d3e2f+617f6939
hlo "$E/model.hlo_module.pb" locked "$G4"
: > "$E/model.hlo_module.pb.lock"
E=$C/MODULE_3048123581293012933+d41d8cd9
hlo "$E/model.hlo_module.pb" incomplete "$G4"; neff "$E/model.neff" "$J4"

# A compiler work directory: three module/NEFF pairs side by side, each
# pair with its own topology; only the second pair disagrees.
W=$L/compiler-workdir
hlo "$W/model.MODULE_1a2b3c4d5e6f7a8b9c0d+d41d8cd9.hlo_module.pb" a "$G4"
neff "$W/model.MODULE_1a2b3c4d5e6f7a8b9c0d+d41d8cd9.neff" "$J4"
hlo "$W/model.MODULE_2b3c4d5e6f7a8b9c0d1e+d41d8cd9.hlo_module.pb" b "$G2"
neff "$W/model.MODULE_2b3c4d5e6f7a8b9c0d1e+d41d8cd9.neff" "$J8"
hlo "$W/model.MODULE_3c4d5e6f7a8b9c0d1e2f+617f6939.hlo_module.pb" c "$G8"
neff "$W/model.MODULE_3c4d5e6f7a8b9c0d1e2f+617f6939.neff" "$J8"
echo 'neuronx-cc compile --framework=XLA ... --target=trn1' \
  > "$W/log-neuron-cc.txt"

# An NxDI compiled-model directory: neuron_config.json above its
# neuronxcc-*/ cache, and an NxD bucket (model/graph.hlo + graph.neff).
N=$L/nxdi-compiled
mkdir -p "$N"
cat > "$N/neuron_config.json" <<'JSON'
{
  "model_type": "llama",
  "neuron_config": {
    "logical_nc_config": 1,
    "tp_degree": 8,
    "world_size": 8
  }
}
JSON
echo 'not a real TorchScript archive' > "$N/model.pt"
C=$N/neuronxcc-2.21.18209.0+043b1bf7
E=$C/MODULE_56f0d314fda2b6e1e336+617f6939
hlo "$E/model.hlo_module.pb" tp8 "$G8"; neff "$E/model.neff" "$J8"
echo '["--target=trn1", "--lnc=1"]' > "$E/compile_flags.json"
: > "$E/model.done"
E=$C/MODULE_6a1d4c2b9e8f7a6b5c4d+617f6939
hlo "$E/model.hlo_module.pb" tp4 "$G2"; neff "$E/model.neff" "$J2"
echo '["--target=trn1", "--lnc=1"]' > "$E/compile_flags.json"
: > "$E/model.done"
B=$N/token_generation_model/_tp0_bk0
hlo "$B/model/graph.hlo" bucket "$G8"; neff "$B/graph.neff" "$J8"
hlo "$B/wrapped_neff.hlo" stub "$G4"
cat > "$B/neuron_config.json" <<'JSON'
{
  "neuron_config": {
    "tp_degree": 8
  }
}
JSON

# An XLA dump directory: module 1 before and after optimizations with the
# NEFF of its final module; module 2 before optimizations only.
X=$L/xla-dump
hlo "$X/module_0001.SyncTensorsGraph.12.before_optimizations.txt" m1b "$G2"
hlo "$X/module_0001.SyncTensorsGraph.12.after_optimizations.txt" m1 "$G4"
neff "$X/module_0001.SyncTensorsGraph.12.neff" "$J4"
hlo "$X/module_0002.SyncTensorsGraph.30.before_optimizations.txt" m2 "$G8"
echo 'BufferAssignment: (not HLO)' \
  > "$X/module_0001.SyncTensorsGraph.12.after_optimizations-buffer-assignment.txt"
echo "wrote $L/{compile-cache,compiler-workdir,nxdi-compiled,xla-dump}"

# config-world-size on a compiled model as neuronx-distributed writes it:
# neuron_config.json above a compile cache whose binary modules record no
# replica_count / num_partitions (no real HloModuleProto does), so the
# device count is derived from the ids the groups list (issue 43 §7).
for c in fail-compiled-model pass-compiled-model; do
  N=fixtures/config-world-size/$c
  find "$N" -mindepth 1 ! -name 'expected*.txt' -delete 2>/dev/null || true
  tp=4; [ "$c" = pass-compiled-model ] && tp=8
  mkdir -p "$N"
  printf '{\n  "model_type": "llama",\n  "neuron_config": {\n    "tp_degree": %s\n  }\n}\n' \
    "$tp" > "$N/neuron_config.json"
  E=$N/neuronxcc-2.21.18209.0+043b1bf7/MODULE_7e1f0c3a9b2d4e5f6a7b+617f6939
  HEADER='' hlo "$E/model.hlo_module.pb" tp8 "$G8"; neff "$E/model.neff" "$J8"
  echo '["--target=trn1", "--lnc=1"]' > "$E/compile_flags.json"
  : > "$E/model.done"
done
echo "wrote fixtures/config-world-size/{fail,pass}-compiled-model"
