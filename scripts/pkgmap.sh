#!/usr/bin/env bash
# The package map: every package of the module with its non-test Go lines,
# its share of the total, and the packages of this module it imports.
# Usage: scripts/pkgmap.sh [packages] (default ./...)
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
go list -f '{{.ImportPath}}|{{.Dir}}|{{join .GoFiles " "}}|{{join .Imports " "}}' "${@:-./...}" |
while IFS='|' read -r pkg dir files imports; do
  n=0
  if [ -n "$files" ]; then
    n=$(cd "$dir" && cat $files | wc -l)
  fi
  own=""
  for i in $imports; do
    case "$i" in
      "$mod") own="$own (root)" ;;
      "$mod"/*) own="$own ${i#"$mod"/}" ;;
    esac
  done
  echo "${pkg#"$mod"/}|$n|${own# }"
done | awk -F'|' -v mod="$mod" '
  { p[NR] = ($1 == mod ? "(root)" : $1); n[NR] = $2; imp[NR] = $3; total += $2 }
  END {
    printf "%-28s %7s %6s  %s\n", "package", "lines", "share", "imports of this module"
    for (i = 1; i <= NR; i++)
      printf "%-28s %7d %5.1f%%  %s\n", p[i], n[i], 100 * n[i] / total, imp[i]
    printf "%-28s %7d\n", "total", total
  }'
