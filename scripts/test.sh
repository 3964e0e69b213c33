#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite on the Vulkan device present
# (lavapipe where there is no GPU), with the validation layer on in every GPU test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" -DWEFT_BUILD_TESTS=ON
cd "$root/build"
ctest --output-on-failure --parallel "$(nproc)" "$@"
