#!/usr/bin/env bash
# Registers and spills of every kernel of one CUDA source file, per source tree, from ptxas (no GPU
# needed): compiles FILE of each TREE for sm_90 with `-Xptxas -v` (the release build's flags) and prints
# one line per kernel (demangled): registers, stack frame, spill stores and loads. With two trees, only
# the kernels whose numbers differ, old -> new. Predicts locally what a variant does to the 80-register
# kernels before it spends device time (the tenth session's claim-ahead variant spilled in every kernel
# it touched and was slower).
#   scripts/ptxas-spills.sh [--file primitives/src/multisplit_lookback.cu] [--match REGEX] TREE [TREE2]
# TREE: a source tree (this checkout, a git worktree of a branch). Several minutes per tree on 2 cores.
set -euo pipefail
export LC_ALL=C # sort and join agree on the order
file=primitives/src/multisplit_lookback.cu
match=.
trees=()
while [ $# -gt 0 ]; do
  case "$1" in
    --file) file=$2; shift 2 ;;
    --match) match=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) trees+=("$1"); shift ;;
  esac
done
[ ${#trees[@]} -ge 1 ] && [ ${#trees[@]} -le 2 ] || { echo "ptxas-spills: name one or two source trees" >&2; exit 2; }
nvcc=${NVCC:-nvcc}
command -v "$nvcc" > /dev/null || nvcc=/usr/local/cuda/bin/nvcc
command -v c++filt > /dev/null || { echo "ptxas-spills: c++filt (binutils) is needed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in "${!trees[@]}"; do
  t=${trees[$i]}
  [ -f "$t/$file" ] || { echo "ptxas-spills: no file $t/$file" >&2; exit 2; }
  # The release build's device flags (CMakeLists.txt: sm_90 SASS, -O3, relaxed constexpr, C++17).
  if ! "$nvcc" -I"$t/primitives/include" -I"$t/primitives/src" -O3 -DNDEBUG \
      --generate-code=arch=compute_90,code=sm_90 --expt-relaxed-constexpr -std=c++17 -Xptxas -v \
      -x cu -c "$t/$file" -o "$tmp/o$i.o" > "$tmp/log$i" 2>&1; then
    echo "ptxas-spills: $t/$file does not compile:" >&2; tail -20 "$tmp/log$i" >&2; exit 1
  fi
  # "Compiling entry function 'NAME'" ... "N bytes stack frame, S bytes spill stores, L bytes spill loads"
  # ... "Used R registers": one line "NAME<TAB>R regs, N stack, S/L spill bytes" per kernel.
  awk '/Compiling entry function/ { match($0, /\x27[^\x27]+\x27/); name = substr($0, RSTART + 1, RLENGTH - 2) }
       /bytes stack frame/ { stack = $0; sub(/^.*ptxas info *: */, "", stack); split(stack, w, " ");
                             frame = w[1]; st = w[5]; ld = w[9] }
       /Used [0-9]+ registers/ && name != "" { match($0, /Used [0-9]+ registers/); r = substr($0, RSTART + 5, RLENGTH - 15);
                             printf "%s\t%s regs, %s stack, %s/%s spill bytes\n", name, r, frame, st, ld; name = "" }' \
      "$tmp/log$i" | sort > "$tmp/k$i"
  cut -f1 "$tmp/k$i" | c++filt > "$tmp/d$i"
  paste "$tmp/d$i" <(cut -f2 "$tmp/k$i") | grep -E -- "$match" > "$tmp/r$i" || true
done
if [ ${#trees[@]} -eq 1 ]; then
  awk -F'\t' '{ printf "%-100s %s\n", $1, $2 }' "$tmp/r0"
else
  echo "kernels of $file whose registers or spills differ: ${trees[0]} -> ${trees[1]}"
  join -t $'\t' <(sort "$tmp/r0") <(sort "$tmp/r1") | awk -F'\t' '$2 != $3 { printf "%-100s %s -> %s\n", $1, $2, $3; n++ }
      END { if (!n) print "(none)" }'
  join -t $'\t' -v 1 <(sort "$tmp/r0") <(sort "$tmp/r1") | awk -F'\t' '{ print "only in the first:  " $1 }'
  join -t $'\t' -v 2 <(sort "$tmp/r0") <(sort "$tmp/r1") | awk -F'\t' '{ print "only in the second: " $1 }'
fi
