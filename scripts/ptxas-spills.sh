#!/usr/bin/env bash
# Registers and spills of every kernel of one CUDA source file, per source tree, from ptxas (no GPU
# needed): compiles FILE of each TREE with `-Xptxas -v` and the release build's own command for FILE
# (BUILD/compile_commands.json of this checkout, its source paths pointed at the tree) and prints
# one line per kernel (demangled): registers, stack frame, spill stores and loads. With two trees, only
# the kernels whose numbers differ, old -> new. Shows on a machine without a GPU what a variant does to
# the registers of kernels near their limit, before it is timed on the GPU.
#   scripts/ptxas-spills.sh [--file primitives/src/multisplit_lookback.cu] [--match REGEX]
#                           [--build build/release] TREE [TREE2]
# TREE: a source tree (this checkout, a git worktree of a branch). Several minutes per tree on 2 cores.
# BUILD: configured by `cmake --preset release` (nothing needs to be built).
set -euo pipefail
export LC_ALL=C # sort and join agree on the order
file=primitives/src/multisplit_lookback.cu
match=.
build=build/release
trees=()
while [ $# -gt 0 ]; do
  case "$1" in
    --file) file=$2; shift 2 ;;
    --match) match=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) trees+=("$1"); shift ;;
  esac
done
[ ${#trees[@]} -ge 1 ] && [ ${#trees[@]} -le 2 ] || { echo "ptxas-spills: name one or two source trees" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$build/compile_commands.json" ] || { echo "ptxas-spills: no $build/compile_commands.json (run cmake --preset release)" >&2; exit 2; }
build=$(cd "$build" && pwd)
command -v c++filt > /dev/null || { echo "ptxas-spills: c++filt (binutils) is needed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in "${!trees[@]}"; do
  t=${trees[$i]}
  [ -f "$t/$file" ] || { echo "ptxas-spills: no file $t/$file" >&2; exit 2; }
  # The build's command for FILE, this checkout's paths replaced by the tree's, its object written to
  # the temporary folder, -Xptxas -v added (NUL-separated arguments, run from the build folder).
  python3 - "$build/compile_commands.json" "$root" "$(cd "$t" && pwd)" "$file" "$tmp/o$i.o" > "$tmp/cmd$i" <<'PY' ||
import json, shlex, sys
db, root, tree, rel, obj = sys.argv[1:]
for e in json.load(open(db)):
    if e["file"] == root + "/" + rel:
        args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        args = [a.replace(root + "/", tree + "/") for a in args]
        args[args.index("-o") + 1] = obj
        sys.stdout.write("\0".join(args[:1] + ["-Xptxas", "-v"] + args[1:]) + "\0")
        sys.exit(0)
sys.exit("ptxas-spills: %s is not in %s" % (rel, db))
PY
    exit 2
  mapfile -d '' cmd < "$tmp/cmd$i"
  if ! (cd "$build" && "${cmd[@]}") > "$tmp/log$i" 2>&1; then
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
