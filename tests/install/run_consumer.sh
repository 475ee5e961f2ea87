#!/usr/bin/env bash
# run_consumer.sh BUILD_DIR CONSUMER_DIR WORK_DIR: installs BUILD_DIR into WORK_DIR/prefix, then builds
# and runs the outside project CONSUMER_DIR against it, with CMake (find_package) and with pkg-config,
# and builds the installed examples (DATADIR/slabcast/examples) as a user would and runs them:
# render_png on the backend the machine has (the CPU in CI), its PNGs checked by check_png.py; cloth
# on its CPU path for a few frames, its first and last frames checked by check_png.py and check_cloth.py.
# Environment (set by tests/install/CMakeLists.txt): CMAKE, CC, CONSUMER_GENERATOR, CONSUMER_CFLAGS,
# LIBDIR (lib, as GNUInstallDirs chose), DATADIR (share), SOURCE_DIR (must not appear in the
# installed package), BUILD_TYPE, PYTHON.
set -euo pipefail
build=$1 consumer=$2 work=$3
cmake=${CMAKE:-cmake} cc=${CC:-cc} libdir=${LIBDIR:-lib} datadir=${DATADIR:-share} python=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
prefix=$work/prefix
fail() { echo "test_install_consumer: FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

rm -rf "$work"
mkdir -p "$work"

step "install $build into $prefix"
"$cmake" --install "$build" --prefix "$prefix" ${BUILD_TYPE:+--config "$BUILD_TYPE"} >"$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }

step "the installed tree"
inc=$prefix/include/slabcast
for h in sc_status.h split.h sc_mesh.h slabcast.h sc_gl.h sc_display.h; do
  [ -f "$inc/$h" ] || fail "public header $h not installed"
done
internal=$(find "$prefix/include" -name 'sc_report.h' -o -name '*_internal.h' -o -name '*.cuh' | head -5)
[ -z "$internal" ] || fail "internal headers installed: $internal"
for l in status split mesh render gl display glad; do
  [ -f "$prefix/$libdir/libslabcast_$l.a" ] || fail "libslabcast_$l.a not installed"
done
for f in slabcastConfig.cmake slabcastConfigVersion.cmake slabcastTargets.cmake; do
  [ -f "$prefix/$libdir/cmake/slabcast/$f" ] || fail "$f not installed"
done
examples=$prefix/$datadir/slabcast/examples
for f in render_png/CMakeLists.txt render_png/render_png.c cloth/CMakeLists.txt cloth/main.c cloth/cloth_sim_cuda.cu; do
  [ -f "$examples/$f" ] || fail "example $f not installed in $examples"
done
[ -x "$prefix/bin/slabcast" ] || fail "the slabcast program is not installed"
if [ -n "${SOURCE_DIR:-}" ] && grep -rlF "$SOURCE_DIR" "$prefix/$libdir/cmake" "$prefix/$libdir/pkgconfig"; then
  fail "the package refers to the source tree (files above)"
fi

step "consumer with find_package(slabcast), CMAKE_PREFIX_PATH=$prefix"
gen=()
[ -n "${CONSUMER_GENERATOR:-}" ] && gen=(-G "$CONSUMER_GENERATOR")
"$cmake" -S "$consumer" -B "$work/cmake-build" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DCMAKE_C_FLAGS="${CONSUMER_CFLAGS:-}" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "the consumer's configure failed"; }
found=$(sed -n 's/^slabcast_DIR:PATH=//p' "$work/cmake-build/CMakeCache.txt")
[ "$found" = "$prefix/$libdir/cmake/slabcast" ] || fail "find_package(slabcast) found '$found', not the installed package"
"$cmake" --build "$work/cmake-build" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "the consumer's build failed"; }
"$work/cmake-build/render_frame" || fail "render_frame (CMake build)"
"$work/cmake-build/split_ref" || fail "split_ref (CMake build)"

step "the installed example render_png, built from $examples as a user builds it"
"$cmake" -S "$examples/render_png" -B "$work/example-build" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Wshadow -Werror ${CONSUMER_CFLAGS:-}" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/example-configure.log" 2>&1 ||
  { cat "$work/example-configure.log" >&2; fail "the example's configure failed"; }
"$cmake" --build "$work/example-build" >"$work/example-build.log" 2>&1 ||
  { cat "$work/example-build.log" >&2; fail "the example's build failed"; }
"$work/example-build/render_png" "$work/knot.png" || fail "render_png (the built-in mesh)"
"$python" "$here/check_png.py" "$work/knot.png" 512 512 || fail "render_png's PNG of the built-in mesh"
# A mesh file: a cube of quads (fanned into triangles by the OBJ reader).
printf '%s\n' 'v -1 -1 -1' 'v 1 -1 -1' 'v 1 1 -1' 'v -1 1 -1' 'v -1 -1 1' 'v 1 -1 1' 'v 1 1 1' 'v -1 1 1' \
  'f 1 4 3 2' 'f 5 6 7 8' 'f 1 2 6 5' 'f 4 8 7 3' 'f 1 5 8 4' 'f 2 3 7 6' >"$work/cube.obj"
"$work/example-build/render_png" "$work/cube.png" "$work/cube.obj" || fail "render_png cube.obj"
"$python" "$here/check_png.py" "$work/cube.png" 512 512 || fail "render_png's PNG of cube.obj"
if "$work/example-build/render_png" "$work/none.png" "$work/no-such-mesh.obj" 2>"$work/example-error.log"; then
  fail "render_png succeeded with a missing mesh file"
fi
grep -q 'no-such-mesh.obj' "$work/example-error.log" ||
  { cat "$work/example-error.log" >&2; fail "render_png's error for a missing file does not name it"; }

step "the installed example cloth, built from $examples as a user builds it, its CPU path run"
# The link takes the sanitizer flags too: with a package built with CUDA, nvcc's host linker links it.
"$cmake" -S "$examples/cloth" -B "$work/cloth-build" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror ${CONSUMER_CFLAGS:-}" \
  -DCMAKE_EXE_LINKER_FLAGS="${CONSUMER_CFLAGS:-}" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/cloth-configure.log" 2>&1 ||
  { cat "$work/cloth-configure.log" >&2; fail "the cloth example's configure failed"; }
"$cmake" --build "$work/cloth-build" >"$work/cloth-build.log" 2>&1 ||
  { cat "$work/cloth-build.log" >&2; fail "the cloth example's build failed"; }
cloth=$work/cloth-build/cloth frames=$work/cloth-frames
"$cloth" --backend cpu --size 40 --frames 16 --image 192x192 --out-dir "$frames" --save-every 15 >"$work/cloth.log" 2>&1 ||
  { cat "$work/cloth.log" >&2; fail "cloth (the CPU path) failed"; }
cat "$work/cloth.log"
grep -q '^cloth: path: CPU' "$work/cloth.log" || fail "cloth did not say that it took the CPU path"
grep -q 'all finite$' "$work/cloth.log" || fail "cloth did not report its particles finite"
for f in frame-0000 frame-0015; do
  "$python" "$here/check_png.py" "$frames/$f.png" 192 192 || fail "cloth's $f.png"
done
"$python" "$here/check_cloth.py" "$frames/frame-0000.png" "$frames/frame-0015.png" || fail "cloth's frames"
set +e
"$cloth" --size 1 >"$work/cloth-error.log" 2>&1; status=$?
set -e
[ "$status" = 2 ] && grep -q -- '--size 1' "$work/cloth-error.log" ||
  { cat "$work/cloth-error.log" >&2; fail "cloth --size 1: exit $status, expected 2 and a message naming the option"; }
if "$cloth" --backend cpu --mesh "$work/no-such-mesh.obj" --frames 1 >"$work/cloth-error.log" 2>&1; then
  fail "cloth succeeded with a missing mesh file"
fi
grep -q 'no-such-mesh.obj' "$work/cloth-error.log" ||
  { cat "$work/cloth-error.log" >&2; fail "cloth's error for a missing file does not name it"; }

step "consumer with pkg-config"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
for pc in slabcast-status slabcast-split slabcast-mesh slabcast-render slabcast-gl slabcast-display; do
  pkg-config --exists --print-errors "$pc" || fail "pkg-config: $pc"
done
mkdir -p "$work/pc-build"
# shellcheck disable=SC2046  # word splitting of the flags is meant
"$cc" ${CONSUMER_CFLAGS:-} $(pkg-config --cflags slabcast-render) -o "$work/pc-build/render_frame" \
  "$consumer/render_frame.c" $(pkg-config --static --libs slabcast-render) || fail "render_frame (pkg-config build)"
# shellcheck disable=SC2046
"$cc" ${CONSUMER_CFLAGS:-} $(pkg-config --cflags slabcast-split) -o "$work/pc-build/split_ref" \
  "$consumer/split_ref.c" $(pkg-config --static --libs slabcast-split) || fail "split_ref (pkg-config build)"
"$work/pc-build/render_frame" || fail "render_frame (pkg-config build)"
"$work/pc-build/split_ref" || fail "split_ref (pkg-config build)"
echo "test_install_consumer: OK"
