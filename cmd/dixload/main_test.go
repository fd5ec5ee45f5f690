package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/loadtest"
)

func TestFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
		check   func(t *testing.T, o *options)
	}{
		{"defaults", nil, "", func(t *testing.T, o *options) {
			assert.Equal(t, 100, o.cfg.Games)
			assert.Equal(t, 3, o.cfg.Players)
			assert.Zero(t, o.cfg.Computers)
			assert.Equal(t, loadtest.GameDIX, o.cfg.Game)
			assert.Equal(t, 3*time.Second, o.cfg.Think)
			assert.Equal(t, 15*time.Second, o.cfg.Ramp, "five think times")
			assert.True(t, o.cfg.RateLimits)
			assert.Equal(t, []string{"DIX_PICTURES=on"}, o.cfg.BotEnv)
		}},
		{"a ceiling run", []string{"-games", "1000", "-think", "0", "-pictures", "off", "-env", "STORE_TIMEOUT=1s"}, "", func(t *testing.T, o *options) {
			assert.Equal(t, 1000, o.cfg.Games)
			assert.Zero(t, o.cfg.Think)
			assert.Zero(t, o.cfg.Ramp)
			assert.Equal(t, []string{"DIX_PICTURES=off", "STORE_TIMEOUT=1s"}, o.cfg.BotEnv)
		}},
		{"explicit ramp", []string{"-ramp", "1m", "-duration", "5m"}, "", func(t *testing.T, o *options) {
			assert.Equal(t, time.Minute, o.cfg.Ramp)
			assert.Equal(t, 5*time.Minute, o.cfg.Duration)
		}},
		{"dixxit with a computer", []string{"-game", "dixxit", "-players", "4", "-computers", "1"}, "", func(t *testing.T, o *options) {
			assert.Equal(t, loadtest.GameDixxit, o.cfg.Game)
			assert.Equal(t, 4, o.cfg.Players)
			assert.Equal(t, 1, o.cfg.Computers)
		}},
		{"redis by its socket", []string{"-redis-socket"}, "", func(t *testing.T, o *options) {
			assert.True(t, o.cfg.RedisSocket)
			assert.Empty(t, o.cfg.RedisURL)
		}},
		{"socket and a Redis URL", []string{"-redis-socket", "-redis", "redis://127.0.0.1:6379/0"}, "-redis-socket", nil},
		{"bad game", []string{"-game", "chess"}, "dix, qwixx or dixxit", nil},
		{"bad pictures", []string{"-pictures", "maybe"}, "-pictures", nil},
		{"bad env", []string{"-env", "NOEQUALS"}, "NAME=value", nil},
		{"binary and in-process", []string{"-inprocess", "-bot", "/bin/dixbot"}, "-inprocess", nil},
		{"stray argument", []string{"now"}, "unexpected", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			o, err := parseFlags(tc.args, &stderr)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			tc.check(t, o)
		})
	}
}

func TestBadFlagsExitTwo(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run(context.Background(), []string{"-players", "x"}, &stdout, &stderr))
	assert.Equal(t, 0, run(context.Background(), []string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-think")
}

// TestInProcessJSON runs one two-player game with the bot in this process
// (the -cpuprofile set-up) and reads the JSON report.
func TestInProcessJSON(t *testing.T) {
	args := []string{"-games", "1", "-players", "2", "-think", "0", "-rate-limits=false", "-inprocess", "-json", "-q", "-dir", t.TempDir()}
	if u := os.Getenv("REDIS_URL"); u != "" {
		args = append(args, "-redis", u)
	} else if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server not found; CI=true requires it")
		}
		t.Skip("redis-server not found")
	}
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	require.Equal(t, 0, run(ctx, args, &stdout, &stderr), stderr.String())
	var rep loadtest.Report
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep), stdout.String())
	assert.Equal(t, 1, rep.Games.Finished)
	assert.Zero(t, rep.Answers.Unanswered)
	assert.Zero(t, rep.ViolationCount, "%v", rep.Violations)
	assert.False(t, rep.Bot.Measured, "in this process, the bot's CPU is not told apart")
	require.NotNil(t, rep.Bot.Log)
	assert.Zero(t, rep.Bot.Log.Errors, "%v", rep.Bot.Log.First)
}
