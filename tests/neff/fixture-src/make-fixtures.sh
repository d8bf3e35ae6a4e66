#!/usr/bin/env bash
# Regenerates the binary .neff inputs of fixtures/neff-lnc-mismatch/ and
# fixtures/neff-graphs-disagree/ from the member trees in this directory
# (the trees live here, not in the fixture directories, so that a fixture
# unit holds only the archive, not loose def.json files).
# Then run scripts/update-golden.sh on the cases and read the results.
set -euo pipefail
cd "$(dirname "$0")/../../.."
SRC=tests/neff/fixture-src
make_neff() {  # <members> <lnc> <case-dir>
  mkdir -p "$3"
  python3 scripts/make-neff.py "$SRC/$1" "$3/model.neff" --lnc "$2"
  echo "wrote $3/model.neff"
}
L=fixtures/neff-lnc-mismatch
make_neff lnc2-one-graph 2 $L/fail-kelf-one-graph
make_neff lnc2 2 $L/fail-config-lnc
make_neff lnc2 2 $L/fail-cli-lnc
make_neff lnc2 2 $L/pass-lnc2
make_neff lnc1 1 $L/pass-lnc1
G=fixtures/neff-graphs-disagree
make_neff rank-differs 2 $G/fail-rank-differs
make_neff world-size-differs 2 $G/fail-world-size-differs
make_neff lnc2 2 $G/pass-identical-graphs
