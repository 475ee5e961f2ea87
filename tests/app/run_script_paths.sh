#!/usr/bin/env bash
# scripts/slabcast.sh builds in the repository but must run the program in the caller's directory,
# so relative --mesh/--out paths resolve there (they used to resolve against, and land in, the
# repository). Checked on a scratch copy of the script with stub install, cmake and program.
set -u
script=$1 work=$2
rm -rf "$work" && mkdir -p "$work/repo/scripts" "$work/repo/build/release/bin" "$work/bin" "$work/caller" || exit 1
cp "$script" "$work/repo/scripts/slabcast.sh"
printf '#!/usr/bin/env bash\necho stub install-deps\n' > "$work/repo/scripts/install-deps.sh"
# cmake must run at the repository root; the program records where it runs and writes --out there.
printf '#!/usr/bin/env bash\necho "$PWD" >> "%s/cmake-dirs"\n' "$work" > "$work/bin/cmake"
cat > "$work/repo/build/release/bin/slabcast" <<'STUB'
#!/usr/bin/env bash
echo "$PWD" > "$STUB_LOG"
while [ $# -gt 0 ]; do
  case $1 in
    --mesh) [ -f "$2" ] || { echo "stub slabcast: no mesh $2 in $PWD" >&2; exit 1; }; shift 2 ;;
    --out) echo image > "$2"; shift 2 ;;
    *) shift ;;
  esac
done
STUB
chmod +x "$work/bin/cmake" "$work/repo/build/release/bin/slabcast"
echo "v 0 0 0" > "$work/caller/m.obj"
(cd "$work/caller" && STUB_LOG="$work/ran-in" PATH="$work/bin:$PATH" bash ../repo/scripts/slabcast.sh --mesh m.obj --out shot.png) \
  || { echo "FAIL: slabcast.sh failed"; exit 1; }
fail=0
[ "$(cat "$work/ran-in")" = "$(cd "$work/caller" && pwd)" ] || { echo "FAIL: program ran in $(cat "$work/ran-in"), not the caller's directory"; fail=1; }
[ -f "$work/caller/shot.png" ] || { echo "FAIL: --out shot.png did not land in the caller's directory"; fail=1; }
[ ! -e "$work/repo/shot.png" ] || { echo "FAIL: --out shot.png landed in the repository"; fail=1; }
while read -r d; do
  [ "$d" = "$(cd "$work/repo" && pwd)" ] || { echo "FAIL: cmake ran in $d, not the repository root"; fail=1; }
done < "$work/cmake-dirs"
[ $fail = 0 ] && echo "PASS: slabcast.sh builds in the repository and runs in the caller's directory"
exit $fail
