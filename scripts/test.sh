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
# Two packages are split into processes that run beside the others: the
# end-to-end tests (they set discordgo's process-wide endpoints, so they
# run one at a time within a process) into E2E_SHARDS, and the table's
# (bot/dixtable, DIX's table, the longest package) into BOT_SHARDS. A
# package's tests are dealt out longest first, in a snake over the
# shards, then the others.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
failed=0
# shardTests PKG N HEAVY... prints N -test.run patterns covering the tests
# of PKG, one per line.
shardTests() {
  local pkg=$1 n=$2
  shift 2
  local heavy=("$@") all order shard i t
  mapfile -t all < <(grep -ho '^func Test[A-Za-z0-9_]*' "$pkg"/*_test.go | sed 's/^func //' | sort -u)
  order=()
  for t in "${heavy[@]}"; do
    [[ " ${all[*]} " == *" $t "* ]] && order+=("$t")
  done
  for t in "${all[@]}"; do
    [[ " ${heavy[*]} " == *" $t "* ]] || order+=("$t")
  done
  # Dealt in a snake (1, 2, 3, 3, 2, 1, 1, …): each round's longest
  # test goes to the shard that got the round's shortest before.
  shard=()
  i=0
  local k
  for t in "${order[@]}"; do
    k=$((i % n))
    (((i / n) % 2)) && k=$((n - 1 - k))
    shard[k]+="${shard[k]:+|}$t"
    i=$((i + 1))
  done
  for ((i = 0; i < n; i++)); do echo "^(${shard[i]})\$"; done
}
# runShards PKG N HEAVY...: one build of PKG's tests, run in the package's
# directory as go test would, once per shard, in the background.
runShards() {
  local pkg=$1 n=$2 k start
  local name=${pkg//\//-}
  shift 2
  local patterns
  mapfile -t patterns < <(shardTests "$pkg" "$n" "$@")
  if ! go test -race -c -o "$logs/$name.test" "./$pkg" >"$logs/$name-build" 2>&1; then
    cat "$logs/$name-build"
    failed=1
    return
  fi
  for ((k = 0; k < n; k++)); do
    (start=$SECONDS
      cd "$pkg" && "$logs/$name.test" -test.count=1 -test.timeout=25m -test.run "${patterns[k]}" >"$logs/$name-$k" 2>&1 \
        && echo "ok  	$pkg shard $((k + 1)) of $n	$((SECONDS - start))s" >>"$logs/$name-$k") &
    pids+=($!)
  done
}
e2eShards=${E2E_SHARDS:-3}
botShards=${BOT_SHARDS:-2}
# The games' rules and computer players (engine/..., computer/...) share no
# memory between goroutines (TestRulesAndComputersAreSingleThreaded checks
# it): the race detector has nothing to find there and would only make
# their long property tests six to seven times slower, so they run
# without it.
single=$(go list ./engine/... ./computer/...)
go test -race -count=1 -timeout 25m $(go list ./... | grep -v '/e2e$' | grep -v 'dixbot/bot/dixtable$' | grep -vxF "$single") >"$logs/packages" 2>&1 &
pids+=($!)
go test -count=1 -timeout 25m $single >"$logs/single" 2>&1 &
pids+=($!)
# The longest tests first, longest to shortest, as measured alone with
# go test -race -v (docs/PERFORMANCE.md, "The test command").
runShards e2e "$e2eShards" TestReplicaKills TestPingsPerTurn TestFivePlayersFasterThanTheRateLimits \
  TestLogsHoldNoInteractionToken TestBoardMissingInTheChannel TestStoreDownMidGame TestPauseKickAndClockScreens \
  TestResultsRecordedOnceOverKills TestNoPingsForComputerPlayedSeats TestFullGame TestLanguages \
  TestKilledAfterSavingStillPostsTheBoard TestClockedGameWithTwoProcesses TestBotTokenCallsPerTurn TestScreens
runShards bot/dixtable "$botShards" TestFrozenRecordsPlayToTheEnd TestFullGameByClicks TestPicturesInGamesByClicks \
  TestRematchStartsAtOnceWhenTheClickerIsTheOnlyPerson TestDixxitPlaysToTheEnd TestBoardAfterTheEnd \
  TestGameWithComputerPlayers TestStartOverUnarchivedGame TestReadmeBoard \
  TestPromptAfterTheGameSaysItIsOverAndWhereItsScoreboardIs TestRematchRefusals TestRematchOfAnUnarchivedGame \
  TestBuyPreviewAgreesWithTheMenu TestFinishedGameShowsNoClock TestGameLog TestRematchConcurrentClicksCreateOneGame \
  TestLeaveHandsTheSeatOverAndTheScoreboardSaysSo TestComputerTurnsDecidedOutsideTheStoreUpdate TestStoreStaysDown \
  TestDixxitClockWithASilentPlayer TestDixxitRace TestSlowStoreDefersTheAnswer
for p in "${pids[@]}"; do
  wait "$p" || failed=1
done
cat "$logs/packages"
echo "-- without the race detector (single-threaded)"
cat "$logs/single"
for pkg in bot/dixtable e2e; do
  n=$botShards
  [ "$pkg" = e2e ] && n=$e2eShards
  for ((k = 0; k < n; k++)); do
    echo "-- $pkg shard $((k + 1)) of $n"
    cat "$logs/${pkg//\//-}-$k" 2>/dev/null || true
  done
done
[ "$failed" -eq 0 ] || { echo "go test failed"; exit 1; }

echo "== fuzz (engine/dix)"
# -fuzzminimizetime bounds the minimising of each new interesting input
# (60 s by default), so the fuzz time is spent executing inputs.
fuzz() {
  go test -run='^$' -fuzz="^$1\$" -fuzztime="$2" -fuzzminimizetime=100x ./engine/dix/ | tee /tmp/dix-fuzz.$$
  # "elapsed: 1m14s," is 74 s.
  awk -v name="$1" '/elapsed: .*execs:/ { e=$3; gsub(/[s,]/, "", e); m=0
      if (e ~ /m/) { split(e, p, "m"); m=p[1]; e=p[2] }
      gsub(/,/, "", $5); t=m*60+e; n=$5 }
    END { if (t > 0) printf "%s: %d executions in %d s, %d per second\n", name, n, t, n / t }' /tmp/dix-fuzz.$$
  rm -f /tmp/dix-fuzz.$$
}
# Budgets are counts of executions, not durations: Go 1.26's coordinator can
# fail a duration budget at its deadline with a bare "context deadline
# exceeded" and no failing input (go.dev/issue/75804, fixed in Go 1.27).
# The counts are about 20 s and 10 s of fuzzing on a 2-core machine once
# the tests are done (FuzzApply about 1,900 executions per second,
# FuzzUnmarshal about 10,000); FUZZTIME sets both budgets at once.
fuzz FuzzApply "${FUZZTIME:-40000x}"
fuzz FuzzUnmarshal "${FUZZTIME:-120000x}"

echo "== checked simulation"
go run ./cmd/dixsim sim -games 2000 -players 4 -check
go run ./cmd/dixsim sim -games 500 -players 1 -check

echo "== all tests passed"
