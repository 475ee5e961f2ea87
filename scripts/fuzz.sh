#!/usr/bin/env bash
# Fuzzes the libFuzzer targets of fuzz/ for a given time (ASan + UBSan, clang's libFuzzer).
#   bash scripts/fuzz.sh TARGET|all SECONDS [-- libFuzzer arguments...]
#   bash scripts/fuzz.sh fuzz_ply 1800                 # the PLY reader for 30 minutes
#   bash scripts/fuzz.sh all 180 -- -only_ascii=1      # each target for 3 minutes, extra flags
# Targets: fuzz_obj fuzz_ply fuzz_stl fuzz_xz fuzz_render_desc. Configures and builds the fuzz preset
# (build/fuzz; FUZZ_BUILD_DIR=dir for another) when needed. Each target runs FUZZ_JOBS parallel
# jobs (default: one per core) for SECONDS each, with -timeout=1 -rss_limit_mb=256 and a -max_len
# per target, starting from its seeds and regression cases; new corpus entries go to
# <build>/fuzz/work/<target>/ (not the committed seeds). Crashes, timeouts, leaks and memory
# blow-ups are saved under fuzz/findings/<target>/ (gitignored). Prints a line per target
# (executions, corpus size, findings) and exits 1 when anything was found.
#
# A finding: reproduce with `<build>/fuzz/bin/<target> fuzz/findings/<target>/crash-...`, fix the
# defect, then keep the input as a regression case under a name that says what it is:
#   cp fuzz/findings/fuzz_ply/crash-1234abcd fuzz/regressions/fuzz_ply/list_count_overflow.ply
# (`ctest --preset fuzz` replays every regression case in CI).
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(fuzz_obj fuzz_ply fuzz_stl fuzz_xz fuzz_render_desc)
usage() { sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ "$#" -ge 2 ] || usage
what=$1 seconds=$2
shift 2
if [ "$#" -gt 0 ]; then
  [ "$1" = "--" ] || usage
  shift
fi
extra=("$@")
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "fuzz.sh: SECONDS must be a positive integer" >&2; exit 2; }
if [ "$what" = all ]; then
  targets=("${all_targets[@]}")
elif [[ " ${all_targets[*]} " == *" $what "* ]]; then
  targets=("$what")
else
  echo "fuzz.sh: unknown target '$what' (one of: ${all_targets[*]}, all)" >&2
  exit 2
fi

build=${FUZZ_BUILD_DIR:-build/fuzz}
jobs=${FUZZ_JOBS:-$(nproc)}
if [ ! -f "$build/build.ninja" ]; then
  if [ "$build" = build/fuzz ]; then cmake --preset fuzz >/dev/null
  else cmake -S . -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DSLABCAST_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  fi
fi
cmake --build "$build" --target "${targets[@]}"

max_len_of() {
  case "$1" in
    fuzz_render_desc) echo 4096 ;;
    *) echo 1048576 ;;  # the readers and the .xz path: files up to 1 MB
  esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
root=$(pwd)
summary=()
found=0
for t in "${targets[@]}"; do
  work="$root/$build/fuzz/work/$t" logs="$root/$build/fuzz/logs/$t" findings="$root/fuzz/findings/$t"
  mkdir -p "$work" "$logs" "$findings"
  rm -f "$logs"/fuzz-*.log
  before=$(find "$findings" -type f | wc -l)
  args=(-max_total_time="$seconds" -timeout=1 -rss_limit_mb=256 -max_len="$(max_len_of "$t")"
        -jobs="$jobs" -workers="$jobs" -print_final_stats=1 -artifact_prefix="$findings/")
  [ -f "fuzz/dict/$t.dict" ] && args+=(-dict="$root/fuzz/dict/$t.dict")
  echo "fuzz.sh: $t: $jobs job(s) x ${seconds}s (logs: $logs)"
  # libFuzzer's exit status is that of the jobs; findings are counted below instead.
  (cd "$logs" && "$root/$build/fuzz/bin/$t" "${args[@]}" "${extra[@]}" \
     "$work" "$root/fuzz/corpus/$t" "$root/fuzz/regressions/$t" >"$logs/main.log" 2>&1) || true
  execs=$(cat "$logs"/fuzz-*.log 2>/dev/null | sed -n 's/^stat::number_of_executed_units: *//p' |
          awk '{ s += $1 } END { print s + 0 }')
  corpus=$(find "$work" -type f | wc -l)
  new=$(( $(find "$findings" -type f | wc -l) - before ))
  summary+=("$(printf '%-18s %12s execs  %6s corpus files  %3s new findings' "$t" "$execs" "$corpus" "$new")")
  if [ "$new" -gt 0 ]; then
    found=1
    grep -h -m3 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|check failed' "$logs"/fuzz-*.log |
      sed "s|^|  $t: |" || true
  fi
done
echo "fuzz.sh: summary (${seconds}s per target, $jobs job(s) each):"
printf '  %s\n' "${summary[@]}"
if [ "$found" -ne 0 ]; then
  echo "fuzz.sh: findings saved under fuzz/findings/ (see the header of scripts/fuzz.sh to reproduce and keep one)" >&2
  exit 1
fi
