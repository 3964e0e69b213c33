#!/usr/bin/env bash
# The main job: installs what is missing, builds, and simulates the default scene headless.
# Writes out/hanging.png (the final frame) and out/hanging-stats.json; prints a one-line summary.
# Arguments replace the defaults and go to `weft run`, e.g. scripts/run.sh demos/scenes/sphere_drape.json --backend cpu
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" -DWEFT_BUILD_TESTS=OFF
mkdir -p "$root/out"
if [ $# -eq 0 ]; then
  set -- "$root/demos/scenes/hanging.json" --png "$root/out/hanging.png" --stats "$root/out/hanging-stats.json"
fi
exec "$root/build/demos/weft/weft" run "$@"
