#!/bin/sh
# Re-renders the app icon's PNG sizes from the one SVG:
#   hicolor/scalable/apps/APPID.svg -> hicolor/NxN/apps/APPID.png
# Uses rsvg-convert (Debian: librsvg2-bin) when it is there, else ImageMagick's convert;
# RENDERER=magick forces ImageMagick. -strip keeps the PNGs small and free of time stamps, so
# re-running it changes no file unless the SVG changed.
# Run from anywhere: sh packaging/linux/icons/render.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
id=io.github.nvvm_playground.NvvmPlayground
svg="$here/hicolor/scalable/apps/$id.svg"
[ -f "$svg" ] || { echo "render.sh: $svg is missing" >&2; exit 1; }
if [ "${RENDERER:-}" != magick ] && command -v rsvg-convert >/dev/null 2>&1; then
    renderer=rsvg
elif command -v convert >/dev/null 2>&1; then
    renderer=magick
    [ "${RENDERER:-}" = magick ] || echo "render.sh: rsvg-convert not found (apt-get install librsvg2-bin); using ImageMagick" >&2
else
    echo "render.sh: needs rsvg-convert (librsvg2-bin) or ImageMagick's convert" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 16 22 24 32 48 64 128 256; do
    out="$here/hicolor/${n}x${n}/apps/$id.png"
    mkdir -p "$(dirname "$out")"
    if [ "$renderer" = rsvg ]; then
        rsvg-convert --width "$n" --height "$n" --format png --output "$tmp/$n.png" "$svg"
        if command -v convert >/dev/null 2>&1; then
            convert "$tmp/$n.png" -strip "png32:$out"
        else
            cp "$tmp/$n.png" "$out"
        fi
    else
        # The SVG is 256 px at 96 dpi: render it at 1024 px (384 dpi), then scale down.
        convert -background none -density 384 "$svg" -resize "${n}x${n}" -strip "png32:$out"
    fi
    echo "$out"
done
