package enginetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scenarioFiles lists testdata/scenarios/*.ext of the package under test.
func scenarioFiles(t *testing.T, ext string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*."+ext))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Scenarios runs every scenario file testdata/scenarios/*.ext of the
// package under test as a subtest named after the file: run plays the open
// file and returns how many expectations it checked, at least one.
func Scenarios(t *testing.T, ext string, run func(t *testing.T, f *os.File) (expects int)) {
	t.Helper()
	files := scenarioFiles(t, ext)
	if len(files) == 0 {
		t.Fatalf("no testdata/scenarios/*.%s", ext)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), "."+ext), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if n := run(t, f); n <= 0 {
				t.Errorf("%s checks nothing: a scenario must check something", file)
			}
		})
	}
}

// ScenariosCover checks that, for every prefix of want, a scenario file
// testdata/scenarios/*.ext begins with it.
func ScenariosCover(t *testing.T, ext string, want []string) {
	t.Helper()
	for _, w := range uncovered(scenarioFiles(t, ext), want) {
		t.Errorf("no scenario for %s", w)
	}
}

// uncovered is the prefixes of want that no file's base name begins with.
func uncovered(files, want []string) []string {
	var missing []string
	for _, w := range want {
		found := false
		for _, f := range files {
			found = found || strings.HasPrefix(filepath.Base(f), w)
		}
		if !found {
			missing = append(missing, w)
		}
	}
	return missing
}
