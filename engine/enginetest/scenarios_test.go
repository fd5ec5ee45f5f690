package enginetest

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestScenarios runs the toy scenario files of testdata/scenarios: each
// *.toy once, as a subtest named after it, and no file of another ending.
func TestScenarios(t *testing.T) {
	seen := map[string]string{}
	Scenarios(t, "toy", func(t *testing.T, f *os.File) int {
		b, err := io.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		seen[t.Name()] = string(b)
		return strings.Count(string(b), "\n")
	})
	want := map[string]string{"TestScenarios/r01-first": "one\n", "TestScenarios/r02-second": "two\nlines\n"}
	if len(seen) != len(want) {
		t.Fatalf("ran %v, want %v", seen, want)
	}
	for k, v := range want {
		if seen[k] != v {
			t.Errorf("%s read %q, want %q", k, seen[k], v)
		}
	}
	ScenariosCover(t, "toy", []string{"r01-", "r02-second"})
}

func TestUncovered(t *testing.T) {
	files := []string{"testdata/scenarios/r01-first.toy", "testdata/scenarios/r02-second.toy"}
	got := uncovered(files, []string{"r01-", "r03-", "second", "r02-second"})
	if strings.Join(got, ",") != "r03-,second" {
		t.Errorf("uncovered: %q, want r03- and second", got)
	}
}
