#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite on the Vulkan device present
# (lavapipe where there is no GPU), with the validation layer on in every GPU test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" -DWEFT_BUILD_TESTS=ON
# Tests run side by side on every core: a CPU-backend pool spinning between passes would hold a core
# that another test's threads wait for (solver/cpu/thread_pool.h), so the pools sleep at once.
export WEFT_SPIN_US="${WEFT_SPIN_US:-0}"
cd "$root/build"
ctest --output-on-failure --parallel "$(nproc)" "$@"
