#!/usr/bin/env bash
# CI's second half, after scripts/test.sh:
#  1. AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/, GCC, RelWithDebInfo) running the
#     tests that need no GPU backend: ctest labels "cpu" (model, scene, readers, report) and "cli"
#     (`weft` end to end), and the CPU-backend instances of weft_gpu_tests (-R '/cpu( |$)').
#     GPU-backend instances (/gpu) and the render and viewer tests are left out: most of their time
#     goes to lavapipe, which is not instrumented. The CLI tests that render or use --backend gpu
#     still run weft's Vulkan host code under the sanitizers.
#  2. A libFuzzer harness per input reader (build-fuzz/, Clang, ASan + UBSan): scene JSON, OBJ mesh,
#     recording. Each starts from its seeds in tests/fuzz/<reader>/ and runs WEFT_FUZZ_SECONDS
#     (default 60); new inputs go to a scratch folder, never into the repository. A finding is saved
#     as build-fuzz/findings/<reader>-crash-* and fails the script.
# Prints each part's time and each fuzzer's executions.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
# Tests run side by side on every core: a CPU-backend pool spinning between passes would hold a core
# that another test's threads wait for (solver/cpu/thread_pool.h), so the pools sleep at once.
export WEFT_SPIN_US="${WEFT_SPIN_US:-0}"
jobs="$(nproc)"
fuzz_seconds="${WEFT_FUZZ_SECONDS:-60}"
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
asan_options="strict_string_checks=1:detect_stack_use_after_return=1"
# RelWithDebInfo with line tables only (-g1): a report still names each frame's function, file and
# line, and the build, the longest part of this script, writes no variable or type information.
line_tables="-O2 -g1 -DNDEBUG"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

timed() {  # timed NAME COMMAND...: runs it and prints how long it took
  local name="$1" start=$SECONDS
  shift
  "$@"
  echo "weft: $name took $((SECONDS - start)) s"
}

asan_build() {
  cmake -S "$root" -B "$root/build-asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_BUILD_TESTS=ON \
    -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$line_tables" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$line_tables" >/dev/null
  cmake --build "$root/build-asan" --parallel "$jobs" \
    --target weft weft_model_tests weft_report_tests weft_cli_tests weft_gpu_tests
}

# Leaks are checked where no Vulkan is loaded. The CLI tests and weft_gpu_tests' CPU instances load
# the Vulkan loader and lavapipe (uninstrumented), which leave a few allocations at exit from code
# already unloaded ("<unknown module>"): there leak checking is off, every other report still fails.
asan_tests() {
  cd "$root/build-asan"
  ASAN_OPTIONS="$asan_options:detect_leaks=1" ctest --output-on-failure --parallel "$jobs" -L cpu
  ASAN_OPTIONS="$asan_options:detect_leaks=0" ctest --output-on-failure --parallel "$jobs" -L cli
  ASAN_OPTIONS="$asan_options:detect_leaks=0" ctest --output-on-failure --parallel "$jobs" -R '/cpu( |$)'
}

fuzz_build() {
  cmake -S "$root" -B "$root/build-fuzz" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_DEMOS=OFF -DWEFT_BUILD_FUZZERS=ON \
    -DCMAKE_C_FLAGS="$sanitize -fsanitize=fuzzer-no-link" -DCMAKE_CXX_FLAGS="$sanitize -fsanitize=fuzzer-no-link" >/dev/null
  cmake --build "$root/build-fuzz" --parallel "$jobs" --target fuzz_scene fuzz_obj fuzz_recording
}

fuzz() {  # fuzz READER
  local reader="$1" scratch log
  scratch="$(mktemp -d)"
  log="$root/build-fuzz/fuzz_$reader.log"
  mkdir -p "$root/build-fuzz/findings"
  local dict=()
  [ -f "$root/tests/fuzz/$reader.dict" ] && dict=("-dict=$root/tests/fuzz/$reader.dict")
  local status=0
  ASAN_OPTIONS="$asan_options:detect_leaks=1" "$root/build-fuzz/tests/fuzz/fuzz_$reader" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$root/build-fuzz/findings/$reader-" "${dict[@]}" \
    "$scratch" "$root/tests/fuzz/$reader" >"$log" 2>&1 || status=$?
  rm -rf "$scratch"
  echo "weft: fuzz_$reader: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo 0) executions"
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$log"
    echo "weft: fuzz_$reader found a failure (log: $log)" >&2
    return 1
  fi
}

timed "ASan+UBSan build" asan_build
timed "ASan+UBSan tests" asan_tests
timed "fuzzer build" fuzz_build
for reader in scene obj recording; do
  timed "fuzz_$reader" fuzz "$reader"
done
