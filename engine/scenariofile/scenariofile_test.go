package scenariofile

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func hashComment(text string) string {
	if i := strings.IndexByte(text, '#'); i >= 0 {
		return text[:i]
	}
	return text
}

// TestRead checks that every non-blank line reaches line as words, with
// its comment cut, blank and comment-only lines skipped, then end.
func TestRead(t *testing.T) {
	var got [][]string
	ended := false
	err := Read(strings.NewReader("players 3\n\n  # only a comment\nroll 1  2 # the dice\n\tend\n"), hashComment,
		func(w []string) error { got = append(got, w); return nil },
		func() error { ended = true; return nil })
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"players", "3"}, {"roll", "1", "2"}, {"end"}}, got)
	assert.True(t, ended)
}

// TestReadFailures checks the *Error of a failing line (number, text as
// written, the cause wrapped), of end, and of a line too long to read.
func TestReadFailures(t *testing.T) {
	bad := errors.New("refused")
	err := Read(strings.NewReader("a\n# c\n  b 2  # why\nc\n"), hashComment,
		func(w []string) error {
			if w[0] == "b" {
				return bad
			}
			return nil
		}, func() error { t.Error("end after a failure"); return nil })
	var se *Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, Error{Line: 3, Text: "b 2  # why", Err: bad}, *se)
	assert.ErrorIs(t, err, bad)
	assert.Equal(t, "line 3: b 2  # why: refused", err.Error())

	err = Read(strings.NewReader("a\nb\n"), hashComment, func([]string) error { return nil }, func() error { return bad })
	require.ErrorAs(t, err, &se)
	assert.Equal(t, Error{Line: 2, Text: "(end)", Err: bad}, *se)

	err = Read(strings.NewReader("a\n"+strings.Repeat("x", 2<<20)+"\n"), hashComment, func([]string) error { return nil }, func() error { return nil })
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 1, se.Line)
}
