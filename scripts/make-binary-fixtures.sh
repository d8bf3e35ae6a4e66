#!/usr/bin/env bash
# Regenerates the binary HLO fixtures (*.hlo_module.pb, *.hlo.pb, *.pb,
# *.pb.gz, and NxD's binary model/graph.hlo) from the text sources in
# tests/hlo/proto/fixture-src, with build/topolint_hlo_to_proto. Run from
# anywhere; then scripts/update-golden.sh on the cases and read the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOL=${TOPOLINT_HLO_TO_PROTO:-build/topolint_hlo_to_proto}
SRC=tests/hlo/proto/fixture-src
F=fixtures
make() {  # make SOURCE OUT [tool options]
  local src=$1 out=$2
  shift 2
  mkdir -p "$(dirname "$out")"
  "$TOOL" "$SRC/$src" "$out" "$@"
}
# Each wrapper, gzip, and each replica-group field.
make duplicate-id.hlo $F/hlo-duplicate-device-id/fail-binary-module/model.hlo_module.pb
make duplicate-id.hlo $F/hlo-duplicate-device-id/fail-binary-module-json/model.hlo_module.pb
make duplicate-id.hlo $F/hlo-duplicate-device-id/fail-binary-module-github/model.hlo_module.pb
make duplicate-id.hlo $F/hlo-duplicate-device-id/fail-binary-gzip/model.pb.gz --gzip --groups 87
make id-beyond-config.hlo $F/hlo-device-id-range/fail-binary-with-config/model.pb --wrapper config
make uneven-groups.hlo $F/hlo-nonuniform-groups/fail-binary-hlo-proto/module_0001.jit_gather.hlo.pb --wrapper hloproto
make uneven-groups.hlo $F/hlo-nonuniform-groups/fail-binary-snapshot/snapshot.pb --wrapper snapshot --groups 87
make iota-ok.hlo $F/hlo-group-coverage/pass-binary-nxd-graph/model/graph.hlo
make iota-ok.hlo $F/hlo-group-coverage/pass-binary-old-nested-iota/model.hlo_module.pb --old-iota
# Shardings (40; a domain's 54 / 55), one failing case per sharding rule.
make sharding-device.hlo $F/hlo-sharding-device/fail-binary-with-config/model.hlo_module.pb
make sharding-count.hlo $F/hlo-sharding-count/fail-binary-iota-and-domain/model.hlo_module.pb
make sharding-rank.hlo $F/hlo-sharding-rank/fail-binary-gzip-tuple/model.pb.gz --gzip
# Source locations as modern JAX records them: OpMetadata.stack_frame_id
# naming a frame of the module's stack_frame_index.
make duplicate-id.hlo $F/hlo-duplicate-device-id/fail-binary-stack-frames/model.hlo_module.pb --stack-frames
# A module cut short: hlo-syntax with the byte offset.
make iota-ok.hlo build/iota-ok.hlo_module.pb
mkdir -p $F/hlo-syntax/fail-binary-truncated
head -c 150 build/iota-ok.hlo_module.pb > $F/hlo-syntax/fail-binary-truncated/model.hlo_module.pb
echo "binary fixtures written"
