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
# Two runs side by side: the packages with goroutines under the race
# detector, and the games' rules and computer players (engine/...,
# computer/...) without it: they share no memory between goroutines
# (TestRulesAndComputersAreSingleThreaded checks it), so the race detector
# has nothing to find there and would only make their long property tests
# six to seven times slower. Within a package, independent tests run in
# parallel: most of their time is spent waiting (on a stand-in, on Redis,
# on a bot's deadlines), so more of them run at once than there are cores.
# testcheck reports the results and fails when a declared test did not
# run, or ran twice, or a package ended without a result.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
single=$(go list ./engine/... ./computer/...)
# go test starts the packages' runs in the order they are listed, each
# once its tests are built: the end-to-end tests, the longest package by
# far and mostly waiting on processes and clocks, go first, then the table.
raced=$(go list ./... | grep -vxF "$single")
first=$(go list ./e2e ./bot)
raced="$first $(echo "$raced" | grep -vxF "$first")"

# fuzz NAME BUDGET fuzzes engine/dix's NAME and prints its rate.
# -fuzzminimizetime bounds the minimising of each new interesting input
# (60 s by default), so the fuzz time is spent executing inputs.
fuzz() {
  go test -run='^$' -fuzz="^$1\$" -fuzztime="$2" -fuzzminimizetime=100x ./engine/dix/ | tee "$logs/fuzz" || return 1
  # "elapsed: 1m14s," is 74 s.
  awk -v name="$1" '/elapsed: .*execs:/ { e=$3; gsub(/[s,]/, "", e); m=0
      if (e ~ /m/) { split(e, p, "m"); m=p[1]; e=p[2] }
      gsub(/,/, "", $5); t=m*60+e; n=$5 }
    END { if (t > 0) printf "%s: %d executions in %d s, %d per second\n", name, n, t, n / t }' "$logs/fuzz"
}
# rules: the short fuzz run of DIX's rules and the checked simulations.
# Budgets are counts of executions, not durations: Go 1.26's coordinator can
# fail a duration budget at its deadline with a bare "context deadline
# exceeded" and no failing input (go.dev/issue/75804, fixed in Go 1.27).
# The counts are about 20 s and 10 s of fuzzing on a 2-core machine with
# nothing beside it (FuzzApply about 1,900 executions per second,
# FuzzUnmarshal about 10,000); FUZZTIME sets both budgets at once.
# Each step's failure is returned: set -e does not reach into a function
# whose status is tested.
rules() {
  echo "== fuzz (engine/dix)"
  fuzz FuzzApply "${FUZZTIME:-40000x}" || return 1
  fuzz FuzzUnmarshal "${FUZZTIME:-120000x}" || return 1
  echo "== checked simulation"
  go run ./cmd/dixsim sim -games 2000 -players 4 -check || return 1
  go run ./cmd/dixsim sim -games 500 -players 1 -check || return 1
}

start=$SECONDS
go test -race -count=1 -timeout 25m -p 3 -parallel "${TEST_PARALLEL:-8}" -json $raced >"$logs/race.json" 2>"$logs/race.err" &
race=$!
# The plain run, then the fuzzing and the simulations, beside the race
# run: the race run leaves a core idle part of the time.
(
  go test -count=1 -timeout 25m -json $single >"$logs/single.json" 2>"$logs/single.err" && touch "$logs/single.ok"
  rules >"$logs/rules" 2>&1 && touch "$logs/rules.ok"
) &
plain=$!
failed=0
wait "$race" || failed=1
wait "$plain" || true
[ -e "$logs/single.ok" ] || failed=1
cat "$logs/race.err" "$logs/single.err"
go run ./internal/testcheck "$logs/race.json" "$logs/single.json" || failed=1
echo "go test: $((SECONDS - start)) s"
cat "$logs/rules"
[ -e "$logs/rules.ok" ] || { echo "the fuzzing or a checked simulation failed"; failed=1; }
[ "$failed" -eq 0 ] || { echo "tests failed"; exit 1; }
echo "== all tests passed"
