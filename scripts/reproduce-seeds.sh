#!/usr/bin/env bash
# Reruns the measurements of docs/seeds.md (each seed's claims against weft) and prints them, one
# experiment after the other, with the machine's load before and after. Not part of the test suite.
# Needs a built weft (scripts/build.sh) and python3 (standard library only); 4 to 6 minutes on 2 shared cores.
#   scripts/reproduce-seeds.sh                              # every experiment
#   scripts/reproduce-seeds.sh seed003_iterations           # some of them (names: scripts/seeds.py)
#   scripts/reproduce-seeds.sh --pictures seed004_corners   # also rewrite docs/images/seed004_corners_*.png
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export WEFT="${WEFT:-$root/build/demos/weft/weft}"
if [[ ! -x "$WEFT" ]]; then
  echo "reproduce-seeds: no weft at $WEFT; build it first (scripts/build.sh)" >&2
  exit 1
fi
echo "reproduce-seeds: $(nproc) cores, Vulkan device: $("$WEFT" devices 2>/dev/null | head -n 1)"
echo "reproduce-seeds: load before: $(uptime)"
start=$(date +%s)
python3 "$root/scripts/seeds.py" "$@"
echo "reproduce-seeds: load after: $(uptime)"
echo "reproduce-seeds: done in $(( $(date +%s) - start )) s"
