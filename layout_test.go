package dixbot_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The domain (the root package), the store and the table's test kit keep
// bytes and a game's name, and import no game: go list -deps finds no
// game's package (its rules, computer player, drawings or presenter)
// below them.
func TestStoreDependsOnNoGame(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "./store", "./internal/tabletest", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	for _, p := range []string{"github.com/dixgame/dixbot", "github.com/dixgame/dixbot/store", "github.com/dixgame/dixbot/internal/tabletest"} {
		require.Contains(t, deps, p, "the list holds their dependencies")
	}
	for _, d := range deps {
		rest, ok := strings.CutPrefix(d, "github.com/dixgame/dixbot/")
		if !ok {
			continue
		}
		for _, game := range []string{"engine/", "computer/", "picture/", "bot/"} {
			assert.False(t, strings.HasPrefix(rest, game), "%s is a game's package", d)
		}
		assert.NotEqual(t, "engine", rest, "the engine contract")
	}
}
