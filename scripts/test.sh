#!/usr/bin/env bash
# The test command: installs what the build needs, builds everything (CUDA included) and runs the
# test suite. GPU tests report "skipped" on machines without an NVIDIA GPU; GL tests use a headless
# EGL context (Mesa's software device here, the NVIDIA device on a GPU machine). Then the CPU-only
# configuration (preset "cpu-only": -DSLABCAST_CUDA=OFF, configured and built with no nvcc on PATH,
# in build/cpu-only) is built and its tests run. Then the fuzz build (preset "fuzz": clang,
# libFuzzer, ASan + UBSan, C only) replays every fuzz target's seed corpus and regression cases
# (ctest label "fuzz").
#   bash scripts/test.sh              # all but the 'large' label, the CPU-only configuration, the
#                                     # fuzz replay (what CI runs)
#   bash scripts/test.sh -L cpu       # extra arguments go to the release ctest; no CPU-only, no fuzz
#   SLABCAST_FUZZ_TESTS=1 bash scripts/test.sh -L cpu    # ... and the fuzz replay too
#   SLABCAST_FUZZ_TESTS=0 bash scripts/test.sh           # never the fuzz replay
#   SLABCAST_CPU_ONLY_TESTS=1|0                          # the CPU-only configuration always / never
#   SLABCAST_CUDA_ARCHITECTURES="75-real;90-real;90-virtual" bash scripts/test.sh
#                                     # the release build for these CUDA architectures only (CI's list:
#                                     # the oldest and the newest; the default builds every one)
#   SLABCAST_CUDA=OFF bash scripts/test.sh               # a machine without CUDA: the CPU-only
#                                                        # configuration (and the fuzz replay) alone
set -euo pipefail
cd "$(dirname "$0")/.."
no_cuda=0
[ "${SLABCAST_CUDA:-}" = OFF ] && no_cuda=1
if [ "$no_cuda" = 1 ]; then bash scripts/install-deps.sh --no-cuda; else bash scripts/install-deps.sh; fi
preset=${SLABCAST_PRESET:-release}
fuzz=${SLABCAST_FUZZ_TESTS:-}
cpu_only=${SLABCAST_CPU_ONLY_TESTS:-}
if [ -z "$fuzz" ]; then
  if [ "$#" -eq 0 ]; then fuzz=1; else fuzz=0; fi
fi
if [ -z "$cpu_only" ]; then
  if [ "$#" -eq 0 ] || [ "$no_cuda" = 1 ]; then cpu_only=1; else cpu_only=0; fi
fi
if [ "$#" -eq 0 ]; then set -- -LE large; fi
jobs=$(nproc 2>/dev/null || echo 2)

if [ "$no_cuda" = 0 ]; then
  if [ -n "${SLABCAST_CUDA_ARCHITECTURES:-}" ]; then
    cmake --preset "$preset" "-DSLABCAST_CUDA_ARCHITECTURES=$SLABCAST_CUDA_ARCHITECTURES"
  else
    cmake --preset "$preset"
  fi
  cmake --build --preset "$preset"
  ctest --preset "$preset" "$@"
fi

if [ "$cpu_only" = 1 ]; then
  # As on a machine without the CUDA toolkit: no directory holding nvcc on PATH, no CUDACXX.
  path_without_nvcc=$(printf '%s' "$PATH" | tr ':' '\n' | while IFS= read -r dir; do
    if [ -n "$dir" ] && [ ! -x "$dir/nvcc" ]; then printf '%s\n' "$dir"; fi; done | paste -sd: -)
  (
    export PATH=$path_without_nvcc
    unset CUDACXX
    cmake --preset cpu-only
    cmake --build --preset cpu-only
    ctest --preset cpu-only --parallel "$jobs" -LE large
  )
fi

if [ "$fuzz" = 1 ]; then
  cmake --preset fuzz
  cmake --build --preset fuzz
  ctest --preset fuzz
fi
