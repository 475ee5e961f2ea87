#!/usr/bin/env bash
# A/B timing of split_bench binaries on one GPU: runs each binary's `--only` rows in turn, RUNS rounds
# interleaved (A B C A B C ...), so drift of the machine touches every variant alike, and prints per row
# the stable split's time of every round and their median for each binary. Each split_bench call
# verifies its results (a failed verification stops the script).
#   scripts/split-ab.sh [--runs N] [--n-log2 K] [--rows "keys,256,uniform pairs,32,uniform ..."] BIN...
# BIN: a split_bench binary, or one packed with xz (NAME.xz, unpacked to a temporary folder first).
# Default rows: keys and pairs at B = 2, 32, 256, 2048, uniform; default 2 rounds at 2^26.
set -euo pipefail
runs=2 nlog=26 rows="keys,2,uniform keys,32,uniform keys,256,uniform keys,2048,uniform pairs,2,uniform pairs,32,uniform pairs,256,uniform pairs,2048,uniform"
bins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --n-log2) nlog=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) bins+=("$1"); shift ;;
  esac
done
[ ${#bins[@]} -ge 1 ] || { echo "split-ab: name at least one split_bench binary" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
only=()
for r in $rows; do only+=(--only "$r"); done
# Unpack what is packed; label each binary by its path.
exe=()
for i in "${!bins[@]}"; do
  b=${bins[$i]}
  [ -f "$b" ] || { echo "split-ab: no file $b" >&2; exit 2; }
  if [[ "$b" == *.xz ]]; then xz -dc "$b" > "$tmp/bin$i"; chmod +x "$tmp/bin$i"; exe+=("$tmp/bin$i")
  else exe+=("$(realpath "$b")"); fi
done
for ((round = 1; round <= runs; ++round)); do
  for i in "${!exe[@]}"; do
    out="$tmp/out.$i.$round"
    if ! "${exe[$i]}" --n-log2 "$nlog" "${only[@]}" --json "$tmp/j.json" > "$out" 2>&1; then
      echo "split-ab: ${bins[$i]} failed (round $round):" >&2; tail -20 "$out" >&2; exit 1
    fi
    # "2^26 pairs   32 uniform    |    0.531 ms ..." -> "2^26 pairs 32 uniform<TAB>0.531"
    awk -F'|' '/^2\^[0-9]+ (keys|pairs) / { split($1, k, " "); split($2, v, " "); print k[1] " " k[2] " " k[3] " " k[4] "\t" v[1] }' \
      "$out" > "$tmp/t.$i.$round"
  done
done
echo "split_bench --only rows at 2^$nlog, stable split, ms: each round, then the median"
for i in "${!exe[@]}"; do echo "  [$i] ${bins[$i]}"; done
cut -f1 "$tmp/t.0.1" | while read -r row; do
  printf '%-24s' "$row"
  for i in "${!exe[@]}"; do
    vals=$(for ((round = 1; round <= runs; ++round)); do awk -F'\t' -v r="$row" '$1 == r { print $2 }' "$tmp/t.$i.$round"; done)
    med=$(echo "$vals" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.4f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
    printf ' | [%d] %s -> %s' "$i" "$(echo $vals)" "$med"
  done
  echo
done
