#!/usr/bin/env bash
# Installs weft's build and test dependencies from Debian 12 packages, only those missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  libshaderc-dev glslc glslang-tools spirv-tools
  libglfw3-dev libglm-dev libstb-dev nlohmann-json3-dev libcli11-dev libtinyobjloader-dev
  libgtest-dev libgmock-dev
  libimgui-dev
  xvfb xauth xdotool
  clang libclang-rt-14-dev llvm-14  # scripts/check-sanitizers.sh: libFuzzer, its runtime, llvm-symbolizer
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "weft: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "weft: run as root or install sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
