#!/usr/bin/env bash
# Shows that the working tree's code records the same bytes as a git revision's on every shipped
# scene, on both backends: builds REV in a temporary worktree, records the working tree's scene files
# with both builds (scripts/record-scenes.sh) and compares the sums. The scenes are the same input
# to both, so what it compares is the code. Exit 0 and "same" when every recording matches; exit 1
# with the recordings that differ otherwise. For refactors that must not change the physics.
#   scripts/same-recordings.sh [REV] [record-scenes.sh options]   # REV defaults to HEAD
# Not run in CI: it builds twice and runs every scene twice on each backend.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rev="HEAD"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then rev="$1"; shift; fi
work="$(mktemp -d "${TMPDIR:-/tmp}/weft-same.XXXXXX")"
cleanup() {
  git -C "$root" worktree remove --force "$work/tree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git -C "$root" worktree add --detach "$work/tree" "$rev" >/dev/null
echo "building $rev in $work/tree" >&2
cmake -S "$work/tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_TESTS=OFF >/dev/null
cmake --build "$work/build" --parallel "$(nproc)" >/dev/null
echo "building the working tree" >&2
"$root/scripts/build.sh" >/dev/null
"$root/scripts/record-scenes.sh" "$work/before" --weft "$work/build/demos/weft/weft" "$@"
"$root/scripts/record-scenes.sh" "$work/after" "$@"
if diff "$work/before/SUMS" "$work/after/SUMS" >&2; then
  echo "same: every shipped scene records the same bytes as $rev on both backends"
else
  echo "differ: the lines above are the recordings that changed against $rev" >&2
  exit 1
fi
