// Package scenariofile reads the lines of a game's scenario file, the text
// format the games' scenario packages (engine/dix/scenario,
// engine/qwixx/scenario) share: one instruction a line, its words
// separated by blanks, comments cut by the game's rule, blank lines
// skipped, and a failure reported with its line number and text.
package scenariofile

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Error is a failed scenario line: a refused decision, an expectation not
// met, or a line that cannot be read.
type Error struct {
	Line int    // 1-based line number
	Text string // the line as written; "(end)" for a failure after the last line
	Err  error  // what went wrong; wraps the engine's sentinel for a refused decision
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s: %v", e.Line, e.Text, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Read reads r line by line (lines up to 1 MiB): cut returns the text of a
// line without its comment; the words of every line left non-blank go to
// line, and end runs after the last one. It returns the first failure as
// an *Error: a line's (with its number and text as written), a read error
// (with the number of the last line read) or end's (text "(end)").
func Read(r io.Reader, cut func(text string) string, line func(words []string) error, end func() error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		f := strings.Fields(cut(sc.Text()))
		if len(f) == 0 {
			continue
		}
		if err := line(f); err != nil {
			return &Error{Line: n, Text: strings.TrimSpace(sc.Text()), Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		return &Error{Line: n, Err: err}
	}
	if err := end(); err != nil {
		return &Error{Line: n, Text: "(end)", Err: err}
	}
	return nil
}
