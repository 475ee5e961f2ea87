#!/usr/bin/env bash
# Packs what the GPU machine needs for real windows (it has the NVIDIA driver, no X server, no GLFW):
# Xvfb with its GLX extension (Mesa's software DRI driver serves the extension; rendering goes to the
# GPU through NVIDIA's GLX client, __GLX_VENDOR_LIBRARY_NAME=nvidia), xkbcomp and its keymaps, GLFW and
# the X client libraries. Downloads Debian packages (amd64) and unpacks them here, never installs them;
# writes two archives (each must travel with the tree, 64 MiB together with the rest):
#   .x/x11.tar.xz   Xvfb, xkb, GLFW, X client libraries            (~5 MB)
#   .x/mesa.tar.xz  swrast_dri.so and the libraries it loads (LLVM) (~45 MB)
# scripts/gpu-window-test.sh unpacks them on the GPU machine. Run once on the development machine, as root.
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs="libaudit-common libaudit1 libbrotli1 libbsd0 libcap-ng0 libdrm-amdgpu1 libdrm-common libdrm-intel1
  libdrm-nouveau2 libdrm-radeon1 libdrm2 libedit2 libelf1 libexpat1 libffi8 libfontenc1 libfreetype6 libgl1-mesa-dri
  libglapi-mesa libglfw3 libglx-mesa0 libice6 libicu72 libllvm15 libmd0 libpciaccess0 libpixman-1-0 libpng16-16
  libsensors-config libsensors5 libsm6 libunwind8 libx11-6 libx11-data libx11-xcb1 libxau6 libxaw7 libxcb-dri2-0
  libxcb-dri3-0 libxcb-glx0 libxcb-present0 libxcb-randr0 libxcb-shm0 libxcb-sync1 libxcb-xfixes0 libxcb1 libxcursor1
  libxdmcp6 libxext6 libxfixes3 libxfont2 libxi6 libxinerama1 libxkbfile1 libxml2 libxmu6 libxpm4 libxrandr2
  libxrender1 libxshmfence1 libxt6 libxxf86vm1 libz3-4 x11-common x11-xkb-utils xkb-data xserver-common xvfb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/root" /tmp/amd64/partial .x
o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
apt-get "${o[@]}" update -qq
# shellcheck disable=SC2086
(cd "$work/debs" && apt-get "${o[@]}" download $pkgs >/dev/null)
for f in "$work"/debs/*.deb; do dpkg -x "$f" "$work/root"; done
cd "$work/root"
rm -rf usr/share/doc usr/share/man usr/share/locale usr/share/lintian usr/share/bug usr/share/icu
lib=usr/lib/x86_64-linux-gnu
find "$lib/dri" -type f ! -name swrast_dri.so -delete
heavy=("$lib/dri" "$lib"/libLLVM-15.so.1 "$lib"/libicuuc.so.72* "$lib"/libicudata.so.72* "$lib"/libz3.so.4)
tar cf - "${heavy[@]}" | xz -T0 -8 > "$OLDPWD/.x/mesa.tar.xz"
rm -rf "${heavy[@]}" "$lib"/libLLVM* "$lib"/libicu* "$lib"/libz3*
tar cf - . | xz -T0 -6 > "$OLDPWD/.x/x11.tar.xz"
ls -la "$OLDPWD/.x"
