#!/usr/bin/env bash
# The project's test command: installs what the tests need on a fresh Debian
# machine (redis-server, chromium), then runs formatting and vet checks, the
# whole test suite with the race detector, a short fuzz run of the engine and
# a checked simulation. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== go test -race"
go test -race -count=1 -timeout 25m ./...

echo "== fuzz (engine/dix)"
# -fuzzminimizetime bounds the minimising of each new interesting input
# (60 s by default), so the fuzz time is spent executing inputs.
fuzz() {
  go test -run='^$' -fuzz="^$1\$" -fuzztime="$2" -fuzzminimizetime=100x ./engine/dix/ | tee /tmp/dix-fuzz.$$
  awk -v name="$1" '/elapsed: .*execs:/ { gsub(/[s,]/, "", $3); gsub(/,/, "", $5); t=$3; n=$5 }
    END { if (t > 0) printf "%s: %d executions in %d s, %d per second\n", name, n, t, n / t }' /tmp/dix-fuzz.$$
  rm -f /tmp/dix-fuzz.$$
}
# Budgets are counts of executions, not durations: Go 1.26's coordinator can
# fail a duration budget at its deadline with a bare "context deadline
# exceeded" and no failing input (go.dev/issue/75804, fixed in Go 1.27).
# The counts are about 20 s and 10 s of fuzzing on a 2-core machine.
fuzz FuzzApply "${FUZZTIME:-100000x}"
fuzz FuzzUnmarshal "${FUZZTIME:-350000x}"

echo "== checked simulation"
go run ./cmd/dixsim sim -games 2000 -players 4 -check
go run ./cmd/dixsim sim -games 500 -players 1 -check

echo "== all tests passed"
