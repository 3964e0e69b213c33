#!/usr/bin/env bash
# Records every shipped scene (demos/scenes/*.json) on both backends and writes the recordings'
# SHA-256 sums, one line each, to OUT/SUMS. Two builds that record the same bytes list the same sums:
#   scripts/record-scenes.sh /tmp/before                  # with the build of one revision
#   scripts/record-scenes.sh /tmp/after                   # with the build of the next
#   diff /tmp/before/SUMS /tmp/after/SUMS                 # empty when the physics is unchanged
# scripts/same-recordings.sh does all of that against a git revision.
# Options: --frames N (default 24, by which drop_pile, layers, mesh_body and moving_body are in
# contact; twist and thin_board come into contact later: 0 runs each scene's own frame count, which
# a change to contact wants), --weft PATH (default
# build/demos/weft/weft), --backends "gpu cpu". A scene that fails on a backend lists its exit status
# instead of a sum, so a change in what fails shows too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
frames=24
weft="$root/build/demos/weft/weft"
backends="gpu cpu"
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) frames="$2"; shift 2 ;;
    --weft) weft="$2"; shift 2 ;;
    --backends) backends="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) out="$1"; shift ;;
  esac
done
if [ -z "$out" ]; then
  echo "record-scenes.sh: name the folder to write the recordings to (see --help)" >&2
  exit 2
fi
if [ ! -x "$weft" ]; then
  echo "record-scenes.sh: no weft program at $weft (scripts/build.sh builds it)" >&2
  exit 2
fi
mkdir -p "$out"
: > "$out/SUMS"
scenes=("$root"/demos/scenes/*.json)
total=$(( ${#scenes[@]} * $(wc -w <<<"$backends") ))
done_count=0
for scene in "${scenes[@]}"; do
  name="$(basename "$scene" .json)"
  for backend in $backends; do
    done_count=$((done_count + 1))
    rec="$out/$name-$backend.weftrec"
    args=(run "$scene" --backend "$backend" --record "$rec" --quiet)
    [ "$frames" != 0 ] && args+=(--frames "$frames")
    printf '[%d/%d] %s on %s\n' "$done_count" "$total" "$name" "$backend" >&2
    status=0
    (cd "$root" && "$weft" "${args[@]}" > "$out/$name-$backend.log" 2>&1) || status=$?
    if [ "$status" -eq 0 ] && [ -f "$rec" ]; then
      echo "$(sha256sum < "$rec" | cut -d' ' -f1)  $name-$backend" >> "$out/SUMS"
    else
      echo "exit-$status  $name-$backend" >> "$out/SUMS"
    fi
  done
done
echo "wrote $out/SUMS ($done_count recordings)" >&2
