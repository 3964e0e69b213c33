#!/usr/bin/env bash
# Installs what is missing, builds, and runs the test suite on the Vulkan device present (lavapipe
# where there is no GPU), with the validation layer on in every GPU test.
#   scripts/test.sh               the whole suite (what CI runs)
#   scripts/test.sh --quick       the quick tier: every module, without the tests labelled slow (those
#                                 of tests/slow_tests.txt, each over 3 s here); about 1.5 minutes on 2 cores
#   scripts/test.sh --list-slow   after a run, the tests over 3 s by CTest's cost data, for that file
# Other arguments go to ctest (-R NAME, --output-on-failure is already on).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quick=0
args=()
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --list-slow)
      cost="$root/build/Testing/Temporary/CTestCostData.txt"
      if [ ! -f "$cost" ]; then
        echo "test.sh: no $cost yet: run the suite first" >&2
        exit 2
      fi
      # CTestCostData.txt: a test a line, its name (a parameterized one's followed by a comment), its runs
      # and its average seconds last; then a line "---" and the failed tests.
      # As GoogleTest filter patterns: a value-parameterized test's pretty value ("gpu") is its index.
      sed '/^---/,$d' "$cost" | awk '$NF + 0 > 3 { print $1 }' | sed -E 's#/"[a-z_]+"$#/*#' | sort -u
      exit 0
      ;;
    *) args+=("$arg") ;;
  esac
done
"$root/scripts/build.sh" -DWEFT_BUILD_TESTS=ON
# Tests run side by side on every core: a CPU-backend pool spinning between passes would hold a core
# that another test's threads wait for (solver/cpu/thread_pool.h), so the pools sleep at once.
export WEFT_SPIN_US="${WEFT_SPIN_US:-0}"
if [ "$quick" -eq 1 ]; then
  args+=(-LE slow)  # slow, cpu_slow, cli_slow (tests/CMakeLists.txt)
fi
cd "$root/build"
ctest --output-on-failure --parallel "$(nproc)" ${args[@]+"${args[@]}"}
