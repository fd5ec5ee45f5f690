package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
)

// scenarioGame runs a scenario script and returns the game where it stops.
func scenarioGame(t *testing.T, script string) *dix.Game {
	t.Helper()
	res, err := Run(strings.NewReader(script))
	require.NoError(t, err)
	return res.Game
}

func TestScenarioFailures(t *testing.T) {
	tests := []struct {
		name   string
		script string
		line   int
		is     error
	}{
		{"illegal action", "players 2\ndeck g1 g2\nrest none\np0 stop\n", 4, dix.ErrMustDraw},
		{"expectation not met", "players 2\nexpect money p0 5\nexpect money p1 4\n", 3, errExpect},
		{"expected error not raised", "players 2\nexpect error ErrMustDraw p0 draw\n", 2, errExpect},
		{"wrong error", "players 2\nexpect error ErrDeckEmpty p0 stop\n", 2, errExpect},
		{"unknown line", "players 2\nfrobnicate\n", 2, nil},
		{"bad options", "players 9\nexpect deck 1\n", 2, dix.ErrBadOptions},
		{"bad card", "deck g0\n", 1, dix.ErrBadCard},
		{"card not in deck", "players 2\ndeck g9 g9\nexpect deck 91\n", 3, nil},
		{"event absent", "players 2\np0 draw\nexpect event bust\n", 3, errExpect},
		{"bad seat", "players 2\nq0 draw\n", 2, nil},
		{"bad payment", "players 2\nmarket g1\np0 buy g1 pay lots\n", 3, nil},
		{"unknown error name", "players 2\nexpect error ErrNope p0 draw\n", 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(strings.NewReader(tc.script))
			require.Error(t, err)
			var se *Error
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, tc.line, se.Line, "%v", err)
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
			}
			assert.Contains(t, err.Error(), "line ")
		})
	}
}

func TestFormatActionRoundTrip(t *testing.T) {
	s := &scenario{g: scenarioGame(t, "players 3\ndeck g1\nrest none\n")}
	for _, line := range []string{
		"p0 draw", "p1 stop", "p2 numbers", "p0 money", "p1 end", "p0 consolation", "p0 bustbuy",
		"p2 bid 7", "p1 pass", "p0 buy g3 pay money 2 cards g1 b1", "p0 buy p9 pay consolation 3",
		"p1 pay money 1 consolation 1 cards o4", "p1 pay nothing",
	} {
		a, err := s.action(strings.Fields(line))
		require.NoError(t, err, line)
		assert.Equal(t, line, dix.FormatAction(a))
	}
}
