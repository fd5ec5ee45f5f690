package locales

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddMakesAGamesWordsKnown(t *testing.T) {
	// Not parallel: it adds to the process's locale files.
	const id = "addtest_title"
	require.False(t, Has(French, id))
	t.Cleanup(func() { delete(keys[French], id); delete(plain[French], id) }) // other tests see the files' keys only
	require.NoError(t, Add(French, []byte(id+" = \"Le duel de {{.Name}}\"\n")))
	assert.True(t, Has(French, id))
	assert.False(t, Has(English, id), "only the language added to")
	assert.Equal(t, "Le duel de Zoé", T(French, id, map[string]any{"Name": "Zoé"}))
	assert.Error(t, Add("de", []byte(id+" = \"x\"\n")))
	assert.Error(t, Add(French, []byte("not toml = = \n")))
}
