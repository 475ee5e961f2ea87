#!/usr/bin/env bash
# Installs the Debian packages slabcast's build and tests need. Idempotent: installs only what is
# missing (apt-get update only then). Works as root or through sudo. The CUDA toolkit (13.x, nvcc)
# is not a Debian package of the right version: it is checked, not installed; with --no-cuda (a
# build with -DSLABCAST_CUDA=OFF, preset cpu-only) it is not needed and not checked.
#   bash scripts/install-deps.sh [--no-cuda]
set -euo pipefail
check_cuda=1
for arg in "$@"; do
  case "$arg" in
    --no-cuda) check_cuda=0 ;;
    *) echo "install-deps: unknown argument '$arg' (use --no-cuda or nothing)" >&2; exit 2 ;;
  esac
done

packages=(
  cmake ninja-build gcc g++ pkg-config xz-utils liblzma-dev clang libclang-rt-14-dev
  libglfw3-dev libcglm-dev libstb-dev python3-glad
  libgl-dev libegl-dev libopengl-dev libegl1 libgl1-mesa-dri libegl-mesa0
  xvfb xauth xdotool python3-xlib
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  if [ "$(id -u)" -eq 0 ]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "install-deps: all Debian packages present"
fi

if [ "$check_cuda" = 0 ]; then
  echo "install-deps: the CUDA toolkit is not checked (--no-cuda)"
  exit 0
fi
nvcc_path=$(command -v nvcc || true)
[ -n "$nvcc_path" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc_path=/usr/local/cuda/bin/nvcc; }
if [ -z "$nvcc_path" ]; then
  cat >&2 <<'MSG'
install-deps: the CUDA toolkit (nvcc, 12.8 or newer; 13.0 is what slabcast is tested with) was not found.
Install NVIDIA's CUDA toolkit for Debian 12 (https://developer.nvidia.com/cuda-downloads, package
cuda-toolkit-13-0) so that /usr/local/cuda/bin/nvcc exists, then run this again; or build without
CUDA (CPU backend only): bash scripts/install-deps.sh --no-cuda && cmake --preset cpu-only.
MSG
  exit 1
fi
echo "install-deps: $("$nvcc_path" --version | tail -1)"
