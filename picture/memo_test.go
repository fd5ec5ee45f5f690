package picture

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemoDrawsOncePerKey(t *testing.T) {
	m := NewMemo(1 << 20)
	draws := 0
	draw := func(s string) func() ([]byte, error) {
		return func() ([]byte, error) { draws++; return []byte(s), nil }
	}
	k1, err := KeyOf(struct{ A, B int }{1, 2})
	require.NoError(t, err)
	k2, err := KeyOf(struct{ A, B int }{1, 3})
	require.NoError(t, err)
	assert.NotEqual(t, k1, k2)

	for range 3 {
		png, err := m.Picture(k1, draw("one"))
		require.NoError(t, err)
		assert.Equal(t, "one", string(png))
	}
	png, err := m.Picture(k2, draw("two"))
	require.NoError(t, err)
	assert.Equal(t, "two", string(png))
	assert.Equal(t, 2, draws)
	hits, misses := m.Counts()
	assert.Equal(t, [2]int64{2, 2}, [2]int64{hits, misses})
}

func TestMemoKeepsNoFailure(t *testing.T) {
	m := NewMemo(1 << 20)
	k, _ := KeyOf("x")
	_, err := m.Picture(k, func() ([]byte, error) { return nil, errors.New("no") })
	require.Error(t, err)
	png, err := m.Picture(k, func() ([]byte, error) { return []byte("ok"), nil })
	require.NoError(t, err)
	assert.Equal(t, "ok", string(png))
}

// TestMemoStaysWithinItsBudget fills a memo far past its budget: it holds
// at most about the budget, and the latest pictures stay.
func TestMemoStaysWithinItsBudget(t *testing.T) {
	m := NewMemo(10_000)
	pic := make([]byte, 1000)
	for i := range 100 {
		k, _ := KeyOf(i)
		_, err := m.Picture(k, func() ([]byte, error) { return pic, nil })
		require.NoError(t, err)
	}
	held := 0
	for _, half := range []map[Key][]byte{m.cur, m.old} {
		for _, p := range half {
			held += len(p)
		}
	}
	assert.LessOrEqual(t, held, 10_000)
	k, _ := KeyOf(99)
	_, err := m.Picture(k, func() ([]byte, error) { return nil, fmt.Errorf("drawn again") })
	assert.NoError(t, err, "the latest picture is kept")
}
