#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from fixtures/ (nothing here is
# committed: the fixtures are the source of truth).
#
#   fuzz/make-corpus.sh [OUT_DIR]     (default: build-fuzz/corpus)
#
# Writes OUT_DIR/<target>/ for each target in fuzz/*_fuzz.cc:
#   hlo_parser_fuzz    every fixture .hlo
#   hlo_proto_fuzz     every binary HLO fixture (.pb, .pb.gz, a binary .hlo)
#   gzip_stream_fuzz   the same files (read as gzip, compressed, and as a module)
#   def_json_fuzz      every fixture def.json and the .neff member sources
#   config_fuzz        every fixture neuron_config.json / vllm_config.json
#                      and .topolint.json
#   neff_archive_fuzz  every fixture .neff, plus plain-tar (uncompressed)
#                      builds of tests/neff/fixture-src/* so that
#                      mutations reach the tar and JSON layers directly
#   project_config_fuzz every fixture and test .topolint.json, plus one
#                      hand-written seed using every key
#   baseline_fuzz      one hand-written baseline
#   unit_fuzz          one input per fixture case: its HLO, def.json and
#                      config joined by the separator line "@@@@", then its
#                      --lnc/--num-cores/--replica-count/--num-partitions
#   stdin_fuzz         the fixture HLO texts (as model.hlo, and with no
#                      name), StableHLO texts (as model.mlir, and with no
#                      name), def.json and configs, each behind the two
#                      bytes that pick the --stdin-filename and where the
#                      1 MiB read-ahead ends (fuzz/stdin_target.h)
# Re-running replaces OUT_DIR/<target>/seed-* only (inputs libFuzzer added
# to the directory are kept).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/build-fuzz/corpus}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"

targets=(hlo_parser_fuzz hlo_proto_fuzz def_json_fuzz config_fuzz neff_archive_fuzz
  unit_fuzz project_config_fuzz baseline_fuzz gzip_stream_fuzz stdin_fuzz)
for t in "${targets[@]}"; do
  mkdir -p "$out/$t"
  find "$out/$t" -maxdepth 1 -name 'seed-*' -delete
done

# seed <target> <source-path>: copies a file under a name derived from its path.
seed() {
  local name
  name="seed-$(printf '%s' "$2" | tr '/ ' '__')"
  cp "$2" "$out/$1/$name"
}

while IFS= read -r -d '' f; do seed hlo_parser_fuzz "$f"; done \
  < <(find fixtures -type f \( -name '*.hlo' -o -name '*.hlo.txt' \) -print0)
while IFS= read -r -d '' f; do
  case "$f" in
    *.hlo) LC_ALL=C grep -q '[^[:print:][:space:]]' "$f" || continue ;;
  esac
  seed hlo_proto_fuzz "$f"
  seed gzip_stream_fuzz "$f"
done < <(find fixtures -type f \( -name '*.pb' -o -name '*.pb.gz' \
           -o -name '*.hlo' \) -print0)
while IFS= read -r -d '' f; do seed def_json_fuzz "$f"; done \
  < <(find fixtures tests/neff/fixture-src -type f -name '*.json' \
        ! -name neuron_config.json ! -name vllm_config.json -print0)
while IFS= read -r -d '' f; do seed config_fuzz "$f"; done \
  < <(find fixtures tests -type f \( -name neuron_config.json \
        -o -name vllm_config.json -o -name .topolint.json \) -print0)
while IFS= read -r -d '' f; do seed project_config_fuzz "$f"; done \
  < <(find fixtures tests -type f -name .topolint.json -print0)
# baseline_fuzz and project_config_fuzz: small hand-written seeds (the
# fixtures hold no baseline or .topolint.json).
cat > "$out/baseline_fuzz/seed-two-entries.json" <<'JSON'
{
  "version": 1,
  "findings": [
    {
      "rule": "hlo-syntax",
      "file": "model.hlo",
      "fingerprint": "0123456789abcdef",
      "message": "expected a shape"
    },
    {
      "rule": "neff-schema",
      "file": "def.json",
      "fingerprint": "fedcba9876543210",
      "message": "m",
      "extra": {"a": [1, 2, {"b": null}]}
    }
  ]
}
JSON
cat > "$out/project_config_fuzz/seed-every-key.json" <<'JSON'
{"rules": ["-*", "hlo-*"], "severity": {"hlo-not-flattened-id": "error"},
 "werror": false, "lnc": 2, "num_cores": 64, "replica_count": 1,
 "num_partitions": 8,
 "per_file_ignores": {"legacy/*.hlo": ["hlo-multiple-geometries"]}}
JSON
while IFS= read -r -d '' f; do seed neff_archive_fuzz "$f"; done \
  < <(find fixtures -type f -name '*.neff' -print0)
for src in tests/neff/fixture-src/*/; do
  [ -f "$src/kelf-0.json" ] || continue
  python3 scripts/make-neff.py "$src" \
    "$out/neff_archive_fuzz/seed-plain-$(basename "$src").neff" --plain --lnc 2 \
    > /dev/null
done

# unit_fuzz: one input per fixture case directory.
sep=$'\n@@@@\n'
while IFS= read -r -d '' dir; do
  hlo="" def="" cfg="" opts=""
  for f in "$dir"/*.hlo "$dir"/*.hlo.txt; do [ -f "$f" ] && hlo="$(cat "$f")"; done
  [ -f "$dir/def.json" ] && def="$(cat "$dir/def.json")"
  for f in "$dir/neuron_config.json" "$dir/vllm_config.json"; do
    [ -f "$f" ] && cfg="$(cat "$f")"
  done
  [ -n "$hlo$def$cfg" ] || continue
  if [ -f "$dir/args" ]; then
    read -r -a args < "$dir/args" || true
    lnc=0 cores=0 rc=0 np=0
    for ((i = 0; i + 1 < ${#args[@]}; i++)); do
      case "${args[i]}" in
        --lnc) lnc="${args[i+1]}" ;;
        --num-cores) cores="${args[i+1]}" ;;
        --replica-count) rc="${args[i+1]}" ;;
        --num-partitions) np="${args[i+1]}" ;;
      esac
    done
    opts="$sep$lnc $cores $rc $np"
  fi
  printf '%s%s%s%s%s%s' "$hlo" "$sep" "$def" "$sep" "$cfg" "$opts" \
    > "$out/unit_fuzz/seed-$(printf '%s' "$dir" | tr '/ ' '__')"
done < <(find fixtures -mindepth 2 -maxdepth 2 -type d -print0)

# stdin_fuzz: byte 0 picks the name (0 model.hlo, 1 def.json,
# 2 neuron_config.json, 4 model.mlir, 5 none), byte 1 where the read-ahead
# ends.
stdin_seed() {
  local name
  name="seed-$1-$(printf '%s' "$3" | tr '/ ' '__')"
  { printf "\\x$1\\x$2"; cat "$3"; } > "$out/stdin_fuzz/$name"
}
while IFS= read -r -d '' f; do
  stdin_seed 00 10 "$f"
  stdin_seed 05 00 "$f"
done < <(find fixtures -type f -name '*.hlo' -size -8k -print0 | head -z -n 60)
while IFS= read -r -d '' f; do
  stdin_seed 04 10 "$f"
  stdin_seed 05 00 "$f"
done < <(find fixtures -type f -name '*.mlir' -size -8k -print0 | head -z -n 30)
while IFS= read -r -d '' f; do stdin_seed 01 40 "$f"; done \
  < <(find fixtures -type f -name def.json -size -8k -print0 | head -z -n 30)
while IFS= read -r -d '' f; do stdin_seed 02 00 "$f"; done \
  < <(find fixtures -type f -name neuron_config.json -size -8k -print0 |
        head -z -n 20)

for t in "${targets[@]}"; do
  printf '%-18s %4d seeds\n' "$t" "$(find "$out/$t" -maxdepth 1 -name 'seed-*' | wc -l)"
done
