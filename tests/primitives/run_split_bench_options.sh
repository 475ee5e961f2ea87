#!/usr/bin/env bash
# split_bench's command line, without a GPU (the options are read before the device is asked for):
# --help exits 0 and names every option; bad values, unknown options and options missing their value
# exit 2 with the usage on stderr and nothing run.
#   run_split_bench_options.sh PATH/TO/split_bench
set -u
bin=$1
failures=0
expect() { # want_rc description args...
  local want=$1 what=$2
  shift 2
  local out rc
  out=$("$bin" "$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL  $what: split_bench $* exited $rc, want $want"
    echo "$out" | head -5 | sed 's/^/      /'
    failures=$((failures + 1))
  elif [ "$want" -eq 2 ] && ! grep -q '^usage: split_bench' <<<"$out"; then
    echo "FAIL  $what: split_bench $* exited 2 without the usage"
    failures=$((failures + 1))
  else
    echo "ok    $what"
  fi
}
help=$("$bin" --help)
for opt in --quick --n-log2 --large --wide-only --segmented-only --rules-only --sort-only --move-only --move-n --only --json; do
  grep -q -- "$opt" <<<"$help" || { echo "FAIL  --help does not name $opt"; failures=$((failures + 1)); }
done
expect 0 "--help" --help
expect 2 "unknown option" --bogus
expect 2 "--n-log2 below 10" --n-log2 9
expect 2 "--n-log2 above 30" --n-log2 31
expect 2 "--n-log2 without a value" --n-log2
expect 2 "--move-n below 1024" --move-only --move-n 1023
expect 2 "--move-n above 2^30" --move-only --move-n 1073741825
expect 2 "--move-n not a number" --move-only --move-n 4096,x
expect 2 "--move-n negative" --move-only --move-n -4096
expect 2 "--move-n empty item" --move-only --move-n 4096,,8192
expect 2 "--move-n trailing comma" --move-only --move-n 4096,
expect 2 "--move-n nine counts" --move-only --move-n 2048,2048,2048,2048,2048,2048,2048,2048,2048
expect 2 "--move-n without a value" --move-only --move-n
expect 2 "--only bad row" --only keys,3,uniform
echo "split_bench options: $failures failed"
[ "$failures" -eq 0 ]
