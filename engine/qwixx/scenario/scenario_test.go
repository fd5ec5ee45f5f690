package scenario_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/engine/qwixx/scenario"
)

// TestRunFails checks that the runner stops at the right line for every
// kind of failure: it must never pass a wrong scenario.
func TestRunFails(t *testing.T) {
	const start = "players 2\nroll p0 W3 W4 r1 y1 g1 b1\n"
	tests := []struct {
		name   string
		script string
		line   int
		is     error // nil: any error
	}{
		{"wrong sheet", start + "white p0 r7 p1 -\nexpect sheet p0 r8\n", 4, nil},
		{"wrong score", start + "white p0 r7 p1 -\nexpect score p0 2\n", 4, nil},
		{"refused decision", start + "white p0 r8\n", 3, engine.ErrIllegalMove},
		{"expected error not raised", start + "expect error ErrWrongSum p0 w r7\n", 3, nil},
		{"expected error of another kind", start + "expect error ErrRowLocked p0 w r8\n", 3, nil},
		{"wrong active seat", "players 2\nroll p1 W3 W4 r1 y1 g1 b1\n", 2, nil},
		{"removed die rolled", "players 2\nsheet p1 r2 r3 r4 r5 r6 r12 rL\nroll p0 W3 W4 r1 y1 g1 b1\n", 3, qwixx.ErrBadRoll},
		{"colour sum not in the roll", start + "white p0 - p1 -\ncolour r5=W3+r2\n", 4, nil},
		{"wrong options", start + "expect options p0 r7 -\n", 3, nil},
		{"wrong winners", start + "expect winners p1\n", 3, nil},
		{"no such event", start + "white p0 r7 p1 -\nexpect event penalty\n", 4, nil},
		{"not over", start + "expect over locks\n", 3, nil},
		{"unknown line", start + "dance\n", 3, nil},
		{"bad sheet", "players 2\nsheet p0 r2 rL\n", 2, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scenario.Run(strings.NewReader(tc.script))
			var se *scenario.Error
			require.True(t, errors.As(err, &se), "got %v", err)
			assert.Equal(t, tc.line, se.Line, "%v", err)
			if tc.is != nil {
				assert.ErrorIs(t, err, tc.is)
			}
		})
	}
}

func TestRunPasses(t *testing.T) {
	res, err := scenario.Run(strings.NewReader("players 2\nroll p0 W3 W4 r1 y1 g1 b1\nwhite p0 r7 p1 y7\ncolour -\nexpect sheet p0 r7\nexpect sheet p1 y7\nexpect public-sheet p1 y7\nexpect active p1\n"))
	require.NoError(t, err)
	assert.Equal(t, 3, res.Decisions)
	assert.Equal(t, 4, res.Expects)
}

// FuzzRun feeds any text to Run: it never panics, and a failure is an
// *Error with a line number.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "scenarios", "*.qwixx"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("players 2\nexpect sheet p4 -\n")
	f.Fuzz(func(t *testing.T, script string) {
		_, err := scenario.Run(strings.NewReader(script))
		var se *scenario.Error
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("error %v is not a *scenario.Error", err)
		}
	})
}
