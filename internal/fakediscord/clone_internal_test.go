package fakediscord

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/randfill"
)

// TestClonesAsJSON: on random values, the deep copies equal the round
// trip through JSON, and share no memory with the original.
func TestClonesAsJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var embeds []Embed
		var comps []Component
		var am AllowedMentions
		strs := []string{"", "a", "bé", "x y", "<@1>"}
		randfill.Fill(r, reflect.ValueOf(&embeds).Elem(), strs)
		randfill.Fill(r, reflect.ValueOf(&comps).Elem(), strs)
		randfill.Fill(r, reflect.ValueOf(&am).Elem(), strs)

		ce, cc, ca := cloneEmbeds(embeds), cloneComponents(comps), cloneAllowedMentions(am)
		require.Equal(t, cloneJSON(embeds), ce, "embeds %d", i)
		require.Equal(t, cloneJSON(comps), cc, "components %d", i)
		require.Equal(t, cloneJSON(am), ca, "allowed mentions %d", i)
		for _, pair := range [][2]any{{embeds, ce}, {comps, cc}, {am, ca}} {
			require.False(t, randfill.Shared(pair[0], pair[1]), "value %d: the copy shares memory with the original", i)
		}
	}
}
