package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/redistest"
)

// The frozen records of testdata/records are games in mid-play as this
// store wrote them (made by bot's TestFrozenRecordsGenerate, which also
// plays each of them to its end): every later build must read them.
var frozenCases = []string{"lobby", "auction", "solo", "clocked"}

const frozenTTL = 200 * 365 * 24 * time.Hour // the file store's expiry counts from the stored update time

func readFrozen(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "records", name))
	require.NoError(t, err)
	return b
}

// TestFrozenEnvelopesDecode reads every frozen envelope in formats 1 and 2:
// the table data is the frozen one byte for byte, the state is DIX's and
// reads as a valid game, written again the record reads the same, and
// format 1 holds the same record without a due time.
func TestFrozenEnvelopesDecode(t *testing.T) {
	for _, name := range frozenCases {
		t.Run(name, func(t *testing.T) {
			table := readFrozen(t, filepath.Join("..", "..", "..", "bot", "testdata", "records", name+".table.json"))
			for i, format := range []string{"env1", "env2"} {
				env := readFrozen(t, name+"."+format)
				assert.Equal(t, byte(i+1), env[4], "envelope format")
				r, err := decode("c-"+name, env)
				require.NoError(t, err)
				assert.Equal(t, string(table), string(r.Meta))
				assert.Equal(t, "g1", r.Guild)
				assert.False(t, r.Finished)
				if format == "env1" {
					assert.True(t, r.Due.IsZero())
				}
				if name == "lobby" {
					assert.Empty(t, r.Game)
					assert.Nil(t, r.Data)
					continue
				}
				assert.Empty(t, r.Game, "the store names no game: the table converts the record")
				st, err := dix.Rules{}.Decode(r.Data)
				require.NoError(t, err)
				require.NoError(t, st.Check())
				// Written again, it keeps its bytes.
				again, err := encode(r, r.Version, false, r.UpdatedAt)
				require.NoError(t, err)
				back, err := decode("c-"+name, again)
				require.NoError(t, err)
				assert.Equal(t, r, back)
			}
		})
	}
}

// TestFrozenRecordsThroughStores loads every frozen record through both
// stores: the Redis value under today's keys, and the frozen file store.
func TestFrozenRecordsThroughStores(t *testing.T) {
	t.Run("redis", func(t *testing.T) {
		s := openRedis(t, redistest.Start(t), Options{})
		for _, name := range frozenCases {
			for _, format := range []string{"env1", "env2"} {
				env := readFrozen(t, name+"."+format)
				ch := "c-" + name
				require.NoError(t, s.rdb.Set(ctxb, s.gameKey(ch), env, 0).Err())
				r, err := s.Get(ctxb, ch)
				require.NoError(t, err, "%s.%s", name, format)
				want, err := decode(ch, env)
				require.NoError(t, err)
				assert.Equal(t, want, r)
				// It is written back by an update.
				up, err := s.Update(ctxb, ch, "", func(r *dixbot.Record) error { return nil })
				require.NoError(t, err)
				assert.Equal(t, want.Version+1, up.Version)
				assert.Equal(t, want.Meta, up.Meta)
			}
		}
	})
	t.Run("file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "file.db")
		require.NoError(t, os.WriteFile(path, readFrozen(t, "file.db"), 0o600))
		s, err := OpenFile(path, Options{GameTTL: frozenTTL})
		require.NoError(t, err)
		defer s.Close()
		for _, name := range frozenCases {
			ch := "c-" + name
			r, err := s.Get(ctxb, ch)
			require.NoError(t, err, name)
			assert.Equal(t, "g1", r.Guild)
			assert.Equal(t, name != "lobby", r.Data != nil)
			assert.Empty(t, r.Game)
			up, err := s.Update(ctxb, ch, "", func(r *dixbot.Record) error { return nil })
			require.NoError(t, err)
			assert.Equal(t, r.Version+1, up.Version)
		}
		active, err := s.Active(ctxb, "g1")
		require.NoError(t, err)
		assert.ElementsMatch(t, []string{"c-lobby", "c-auction", "c-solo", "c-clocked"}, active)
	})
}
