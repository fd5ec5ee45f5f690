package dixbot_test

import (
	"bytes"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// No package holds more than a quarter of the module's non-test lines, as
// counted by scripts/pkgmap.sh: the table (bot) hosts the games without
// becoming the program.
func TestNoPackageAboveAQuarter(t *testing.T) {
	lines := map[string]int{}
	total := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		pkg, err := build.Default.ImportDir(path, 0)
		if err != nil {
			return nil // no Go package here
		}
		for _, f := range pkg.GoFiles {
			b, err := os.ReadFile(filepath.Join(path, f))
			if err != nil {
				return err
			}
			n := bytes.Count(b, []byte("\n"))
			lines[path] += n
			total += n
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(lines), 20, "the packages were read")
	for p, n := range lines {
		assert.LessOrEqual(t, 100*n, 25*total, "%s holds %d of the module's %d non-test lines (%.1f%%)", p, n, total, 100*float64(n)/float64(total))
	}
	t.Logf("bot: %d of %d lines (%.1f%%)", lines["bot"], total, 100*float64(lines["bot"])/float64(total))
}
