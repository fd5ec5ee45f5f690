#!/usr/bin/env bash
# Regenerates the Dixxit deck (picture/dixxit/deck/png/*.png) from its
# manifest (picture/dixxit/deck/manifest.json), and draws its contact sheet.
#
#   scripts/dixxit-deck.sh [CONTACT.png]
#
# Needs the Debian packages openclipart-svg (the drawings), librsvg2-bin
# (rsvg-convert) and pngquant:
#   apt-get install -y openclipart-svg librsvg2-bin pngquant
# The deck's credits and licence: docs/dixxit-deck.md.
set -euo pipefail
cd "$(dirname "$0")/.."
deck=picture/dixxit/deck
for tool in rsvg-convert pngquant; do
  command -v "$tool" >/dev/null || { echo "dixxit-deck: $tool is missing (apt-get install -y librsvg2-bin pngquant)" >&2; exit 1; }
done
[ -d /usr/share/openclipart/svg ] || { echo "dixxit-deck: openclipart-svg is missing (apt-get install -y openclipart-svg)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/dixxitdeck" ./cmd/dixxitdeck
rm -f "$deck"/png/*.png
"$bin/dixxitdeck" build "$deck"
echo "dixxit-deck: $(ls "$deck"/png/*.png | wc -l) pictures, $(cat "$deck"/png/*.png | wc -c) bytes"
if [ $# -ge 1 ]; then
  "$bin/dixxitdeck" contact "$deck" "$1"
  echo "dixxit-deck: contact sheet $1"
fi
