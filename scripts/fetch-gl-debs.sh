#!/usr/bin/env bash
# Downloads (does not install) Debian's libglvnd packages into .gl/ for the GPU machine, which has the
# NVIDIA driver's EGL/GL vendor libraries but not the libglvnd dispatch libraries (libEGL.so.1, ...).
# scripts/gpu-test.sh unpacks them there. Run once on the development machine, as root.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .gl /tmp/amd64/partial
o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
apt-get "${o[@]}" update -qq
(cd .gl && apt-get "${o[@]}" download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
ls .gl
