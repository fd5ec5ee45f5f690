package loadtest_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/loadtest"
)

// redisURL is REDIS_URL when set; else "" (Run starts a private
// redis-server), skipping the test when redis-server is missing, or
// failing it when CI=true: CI must run the load.
func redisURL(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("REDIS_URL"); u != "" {
		return u
	}
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server not found; CI=true requires it")
		}
		t.Skip("redis-server not found (apt-get install redis-server, or set REDIS_URL)")
	}
	return ""
}

// TestRunPlaysEveryGameToItsEnd runs the load at its smallest: five
// three-player games of DIX clicked as fast as the bot answers, the
// purchases, bids and payments through the private prompts, against the
// dixbot binary on Redis. The stand-in's rate limits are off: with them a
// game clicked without pause waits for Discord's per-channel windows for a
// minute. Only correctness is checked, never a time: every game reached
// its scoreboard, every interaction was answered within Discord's 3 s, the
// stand-in saw no broken rule, and every figure was read.
func TestRunPlaysEveryGameToItsEnd(t *testing.T) {
	t.Parallel()
	url := redisURL(t)
	bin := loadtest.BuildDixbot(t)
	dir := t.TempDir()
	var progress bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep, err := loadtest.Run(ctx, loadtest.Config{
		Games:    5,
		Players:  3,
		Bot:      &loadtest.Child{Path: bin, Dir: dir, LogFile: filepath.Join(dir, "dixbot.log")},
		RedisURL: url,
		Dir:      dir,
		Stall:    time.Minute,
		Seed:     7,
		Progress: &progress,
		// A line at once: the run lasts a few seconds.
		ProgressEvery: 50 * time.Millisecond,
		BotProfile:    filepath.Join(dir, "bot.prof"),
	})
	require.NoError(t, err)
	t.Logf("%d answers in %.1fs of play, p99 %.1f ms", rep.Answers.Answered, rep.Elapsed, rep.Answers.Latency.P99)
	prof, err := os.ReadFile(filepath.Join(dir, "bot.prof"))
	require.NoError(t, err, "the bot's profile: %s", rep.Bot.Profile)
	require.Greater(t, len(prof), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, prof[:2], "a profile (gzipped protobuf)")
	assert.Equal(t, filepath.Join(dir, "bot.prof"), rep.Bot.Profile)

	assert.Zero(t, rep.TableErrorCount, "tables stopped midway: %v", rep.TableErrors)
	assert.Equal(t, 5, rep.Games.Opened)
	assert.Equal(t, 5, rep.Games.Finished, "every game reached its scoreboard")
	assert.Positive(t, rep.Games.Turns)
	assert.GreaterOrEqual(t, rep.Games.Decisions, rep.Games.Turns, "a decision or more per turn")

	a := rep.Answers
	assert.Zero(t, a.Unanswered)
	assert.Positive(t, a.Answered)
	assert.Equal(t, a.Answered, a.Dispatched, "the players' count is the stand-in's")
	assert.Equal(t, a.Dispatched, a.InTime, "every interaction answered within 3 s")
	assert.Equal(t, a.Answered, a.Latency.Count)
	assert.Equal(t, 5, a.ByKind["command"].Count, "one /dix start per game")
	assert.Positive(t, a.ByKind["select"].Count, "purchases and bids through the prompts' menus")
	assert.LessOrEqual(t, a.Latency.P50, a.Latency.P99)
	assert.LessOrEqual(t, a.Latency.P99, a.Latency.Max)
	assert.Zero(t, rep.ViolationCount, "the stand-in's record of broken rules: %v", rep.Violations)

	b := rep.Bot
	require.True(t, b.Measured, "the child's CPU and memory are read from /proc")
	assert.Positive(t, b.CPUS)
	assert.Positive(t, b.CPUPerInteractionMS)
	assert.Positive(t, b.PeakRSSMiB)
	assert.Empty(t, b.Stop, "the bot stopped cleanly on SIGTERM")
	require.NotNil(t, b.Handling, "the bot's /metrics was read")
	assert.Equal(t, uint64(a.Answered), b.Handling.Count, "the bot handled each interaction once")
	require.NotNil(t, b.Log)
	assert.Zero(t, b.Log.Errors, "errors in the bot's log: %v", b.Log.First)

	assert.Positive(t, rep.Redis.Commands)
	require.NotNil(t, rep.Redis.Sent, "the bot's count of what it sent to Redis was read")
	assert.Positive(t, rep.Redis.Sent.RoundTrips)
	assert.LessOrEqual(t, rep.Redis.Sent.RoundTrips, rep.Redis.Sent.Commands)
	assert.Less(t, rep.Redis.Sent.Commands, uint64(rep.Redis.Commands), "the server also counts what its scripts run")
	assert.Positive(t, rep.Discord.InteractionToken)
	assert.Positive(t, rep.Machine.CPUs)
	assert.Contains(t, progress.String(), "answers", "progress lines")

	var out bytes.Buffer
	rep.Print(&out)
	assert.Contains(t, out.String(), "p99")
	assert.Contains(t, out.String(), "ms per interaction")
	assert.Contains(t, out.String(), "round trips")
}

// TestRunPlaysQwixxToTheEnd runs the load on Qwixx at its smallest: three
// four-player games, every player deciding at once as soon as the board
// asks. Only correctness is checked: every game reached its scoreboard,
// every interaction was answered within 3 s, each roll saw decisions, and
// the stand-in saw no broken rule. The bot reaches its private Redis by
// the server's Unix socket.
func TestRunPlaysQwixxToTheEnd(t *testing.T) {
	t.Parallel()
	url := redisURL(t)
	bin := loadtest.BuildDixbot(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep, err := loadtest.Run(ctx, loadtest.Config{
		Game:     loadtest.GameQwixx,
		Games:    3,
		Players:  4,
		Bot:      &loadtest.Child{Path: bin, Dir: dir, LogFile: filepath.Join(dir, "dixbot.log")},
		RedisURL: url,
		// A private Redis is reached by its Unix socket here, by its port
		// in the other games' runs.
		RedisSocket: url == "",
		Dir:         dir,
		Stall:       time.Minute,
		Seed:        7,
	})
	require.NoError(t, err)
	t.Logf("%d answers in %.1fs of play, %d rolls, %d decisions, %d refused, p99 %.1f ms", rep.Answers.Answered, rep.Elapsed,
		rep.Games.Turns, rep.Games.Decisions, rep.Games.Refusals, rep.Answers.Latency.P99)

	assert.Zero(t, rep.TableErrorCount, "tables stopped midway: %v", rep.TableErrors)
	assert.Equal(t, "/qwixx start", rep.Config.Start)
	assert.Equal(t, url == "", rep.Config.RedisSocket)
	assert.Equal(t, 3, rep.Games.Opened)
	assert.Equal(t, 3, rep.Games.Finished, "every game reached its scoreboard")
	assert.Positive(t, rep.Games.Turns, "rolls read from the boards")
	assert.Greater(t, rep.Games.Decisions, rep.Games.Turns, "several decisions per roll")
	a := rep.Answers
	assert.Zero(t, a.Unanswered)
	assert.Equal(t, a.Answered, a.Dispatched, "the players' count is the stand-in's")
	assert.Equal(t, a.Dispatched, a.InTime, "every interaction answered within 3 s")
	assert.Equal(t, 3, a.ByKind["command"].Count, "one /qwixx start per game")
	assert.Zero(t, rep.ViolationCount, "the stand-in's record of broken rules: %v", rep.Violations)
	require.NotNil(t, rep.Bot.Log)
	assert.Zero(t, rep.Bot.Log.Errors, "errors in the bot's log: %v", rep.Bot.Log.First)
}

// TestRunPlaysDixxitToTheEnd runs the load on Dixxit at its smallest: two
// games of three people and a computer seat, the clue-givers typing or
// saying their clues, the guessers racing at once as soon as the board
// asks, the computer giving clues and racing by itself. Only correctness
// is checked: every game reached its scoreboard, every interaction was
// answered within 3 s, clues were typed in the form, and the stand-in saw
// no broken rule.
func TestRunPlaysDixxitToTheEnd(t *testing.T) {
	t.Parallel()
	url := redisURL(t)
	bin := loadtest.BuildDixbot(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	rep, err := loadtest.Run(ctx, loadtest.Config{
		Game:      loadtest.GameDixxit,
		Games:     2,
		Players:   4,
		Computers: 1,
		Bot:       &loadtest.Child{Path: bin, Dir: dir, LogFile: filepath.Join(dir, "dixbot.log")},
		RedisURL:  url,
		Dir:       dir,
		Stall:     2 * time.Minute,
		Seed:      7,
	})
	require.NoError(t, err)
	t.Logf("%d answers in %.1fs of play, %d turns, %d decisions, %d refused, p99 %.1f ms", rep.Answers.Answered, rep.Elapsed,
		rep.Games.Turns, rep.Games.Decisions, rep.Games.Refusals, rep.Answers.Latency.P99)

	assert.Zero(t, rep.TableErrorCount, "tables stopped midway: %v", rep.TableErrors)
	assert.Equal(t, "/dixxit start", rep.Config.Start)
	assert.Equal(t, 1, rep.Config.Computers)
	assert.Equal(t, 2, rep.Games.Opened)
	assert.Equal(t, 2, rep.Games.Finished, "every game reached its scoreboard")
	assert.Positive(t, rep.Games.Turns, "turns read from the boards")
	assert.Greater(t, rep.Games.Decisions, rep.Games.Turns, "a clue and fingers per turn")
	a := rep.Answers
	assert.Zero(t, a.Unanswered)
	assert.Equal(t, a.Answered, a.Dispatched, "the players' count is the stand-in's")
	assert.Equal(t, a.Dispatched, a.InTime, "every interaction answered within 3 s")
	assert.Equal(t, 2, a.ByKind["command"].Count, "one /dixxit start per game")
	assert.Positive(t, a.ByKind["modal"].Count, "clues typed in the form")
	assert.Zero(t, rep.ViolationCount, "the stand-in's record of broken rules: %v", rep.Violations)
	require.NotNil(t, rep.Bot.Log)
	assert.Zero(t, rep.Bot.Log.Errors, "errors in the bot's log: %v", rep.Bot.Log.First)
}

// A run whose tables cannot be seated is refused before anything starts:
// each game's seats, and a person at every table.
func TestRunRefusesTablesThatCannotBeSeated(t *testing.T) {
	t.Parallel()
	bot := &loadtest.InProcess{Run: func(context.Context, loadtest.BotSettings) error { return nil }}
	for _, tc := range []struct {
		game               string
		players, computers int
		want               string
	}{
		{"", 1, 0, "2 to 5"},
		{loadtest.GameQwixx, 6, 0, "2 to 5"},
		{loadtest.GameDixxit, 2, 0, "3 to 6"},
		{loadtest.GameDixxit, 4, 4, "at least one person"},
		{loadtest.GameDIX, 3, -1, "at least one person"},
		{"chess", 3, 0, "dixxit"},
	} {
		_, err := loadtest.Run(context.Background(), loadtest.Config{Game: tc.game, Games: 1, Players: tc.players, Computers: tc.computers, Bot: bot})
		require.Error(t, err, "%+v", tc)
		assert.Contains(t, err.Error(), tc.want, "%+v", tc)
	}
}
