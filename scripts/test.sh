#!/usr/bin/env bash
# Installs what is missing, builds, and runs the test suite on the Vulkan device present (lavapipe
# where there is no GPU), with the validation layer on in every GPU test.
#   scripts/test.sh               the whole suite (what CI runs)
#   scripts/test.sh --quick       the quick tier: every module, without the tests listed in
#                                 tests/slow_tests.txt (each over 3 s here); about 2.5 minutes on 2 cores
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
      # CTestCostData.txt: "name runs average-seconds" a line, then a line "---" and the failed tests.
      sed '/^---/,$d' "$cost" | awk '$3 > 3 { print $1 }' | sort | sed -e 's/[][\.*^$+?()|]/\\&/g'
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
  # One alternation of the slow tests' names, each anchored at the name's start.
  slow="$(grep -v '^#' "$root/tests/slow_tests.txt" | grep . | sed 's/^/^/' | paste -sd'|')"
  args+=(-E "$slow")
fi
cd "$root/build"
ctest --output-on-failure --parallel "$(nproc)" ${args[@]+"${args[@]}"}
