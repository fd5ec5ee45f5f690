package store

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
)

var ctxTime = time.Date(2026, 11, 22, 5, 0, 0, 123456789, time.UTC)

// yearAhead is how far ahead of the wall clock the suite's clock runs in
// the tests that prove no store path depends on today's date.
const yearAhead = 366 * 24 * time.Hour

func TestEnvelopeRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		rec      dixbot.Record
		version  uint64
		finished bool
	}{
		{"lobby", dixbot.Record{Channel: "1", Guild: "2", Meta: []byte("seats")}, 1, false},
		{"no guild no meta", dixbot.Record{Channel: "1"}, 1 << 40, false},
		{"finished", dixbot.Record{Channel: "1", Guild: "g", Meta: bytes.Repeat([]byte{0, 255}, 300)}, 9, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := encode(&tc.rec, tc.version, tc.finished, ctxTime)
			require.NoError(t, err)
			got, err := decode("1", b)
			require.NoError(t, err)
			assert.Equal(t, tc.rec.Channel, got.Channel)
			assert.Equal(t, tc.rec.Guild, got.Guild)
			assert.Equal(t, tc.rec.Meta, got.Meta)
			assert.Equal(t, tc.version, got.Version)
			assert.Equal(t, tc.finished, got.Finished)
			assert.True(t, got.UpdatedAt.Equal(ctxTime), "got %v, want %v", got.UpdatedAt, ctxTime)
			assert.Empty(t, got.Game)
			assert.Nil(t, got.Data)
			at, ok := updatedAt(b)
			assert.True(t, ok)
			assert.True(t, at.Equal(ctxTime))
		})
	}
}

func TestEnvelopeDecodeDoesNotAlias(t *testing.T) {
	b, err := encode(&dixbot.Record{Channel: "1", Meta: []byte("meta")}, 1, false, ctxTime)
	require.NoError(t, err)
	got, err := decode("1", b)
	require.NoError(t, err)
	clear(b)
	assert.Equal(t, []byte("meta"), got.Meta, "decode must copy: bbolt reuses its pages")
}

func TestEnvelopeBad(t *testing.T) {
	for _, tc := range badEnvelopes(t, ctxTime) {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode("c", tc.b)
			assert.ErrorIs(t, err, tc.want)
		})
	}
}

func TestEnvelopeEveryTruncation(t *testing.T) {
	b, err := encode(&dixbot.Record{Channel: "c", Guild: "guild", Meta: []byte("some meta")}, 3, true, ctxTime)
	require.NoError(t, err)
	for n := range len(b) {
		_, err := decode("c", b[:n])
		assert.ErrorIs(t, err, dixbot.ErrCorrupt, "%d of %d bytes", n, len(b))
	}
}

// FuzzDecode feeds decode arbitrary bytes; with seal the checksum is
// recomputed first, so that the fuzzer gets past it into the fields and the
// game's bytes. decode must never panic, and what it accepts must encode
// back to an envelope that decodes to the same record.
func FuzzDecode(f *testing.F) {
	valid, err := encode(&dixbot.Record{Channel: "c", Guild: "g", Meta: []byte("m")}, 1, false, ctxTime)
	require.NoError(f, err)
	f.Add(valid, false)
	f.Add(valid[:len(valid)-crcSize], true)
	f.Add([]byte("DIXr\x01"), false)
	if g, err := playedGame(halfDealt); err == nil {
		b, err := g.MarshalBinary()
		require.NoError(f, err)
		withState := legacyEnvelope(&dixbot.Record{Channel: "c", Meta: []byte("m")}, b, 5, ctxTime)
		f.Add(withState[:len(withState)-crcSize], true)
		game, err := encode(&dixbot.Record{Channel: "c", Meta: []byte("m"), Game: "dix", Data: b}, 5, true, ctxTime)
		require.NoError(f, err)
		f.Add(game[:len(game)-crcSize], true)
	}
	f.Fuzz(func(t *testing.T, b []byte, seal bool) {
		if seal {
			b = binary.BigEndian.AppendUint32(append([]byte(nil), b...), crc32.Checksum(b, crcTable))
		}
		r, err := decode("c", b)
		if err != nil {
			require.Nil(t, r)
			return
		}
		again, err := encode(r, r.Version, r.Finished, r.UpdatedAt)
		require.NoError(t, err)
		r2, err := decode("c", again)
		require.NoError(t, err)
		assert.Equal(t, r.Guild, r2.Guild)
		assert.Equal(t, r.Meta, r2.Meta)
		assert.Equal(t, r.Version, r2.Version)
		assert.Equal(t, r.Finished, r2.Finished)
		assert.True(t, r.UpdatedAt.Equal(r2.UpdatedAt))
		assert.Equal(t, r.Game, r2.Game)
		assert.Equal(t, r.Data, r2.Data)
	})
}

// The due time round-trips; records written in format 1 (before due times)
// are still read, and a format-1 record claiming a due time is corrupt.
func TestEnvelopeDueAndFormat1(t *testing.T) {
	due := time.UnixMilli(1_800_000_000_123).UTC()
	r := &dixbot.Record{Channel: "c", Guild: "g", Meta: []byte("m"), Due: due}
	b, err := encode(r, 3, false, time.Unix(0, 42))
	require.NoError(t, err)
	got, err := decode("c", b)
	require.NoError(t, err)
	assert.Equal(t, due, got.Due)

	r.Due = time.Time{}
	b, err = encode(r, 3, false, time.Unix(0, 42))
	require.NoError(t, err)
	b[4] = 1 // the same bytes as format 1 wrote them
	b = append(b[:len(b)-crcSize], binary.BigEndian.AppendUint32(nil, crc32.Checksum(b[:len(b)-crcSize], crcTable))...)
	got, err = decode("c", b)
	require.NoError(t, err)
	assert.True(t, got.Due.IsZero())
	_, ok := updatedAt(b)
	assert.True(t, ok, "format 1 records still expire")

	r.Due = due
	b, err = encode(r, 3, false, time.Unix(0, 42))
	require.NoError(t, err)
	b[4] = 1
	b = append(b[:len(b)-crcSize], binary.BigEndian.AppendUint32(nil, crc32.Checksum(b[:len(b)-crcSize], crcTable))...)
	_, err = decode("c", b)
	assert.ErrorIs(t, err, ErrCorrupt)
}

// A record of a contract game is written in format 4 with its name and
// data, which readers of formats up to 3 refuse; format 3 (the same
// layout, written by those readers) is still read; a DIX record of its own
// table stays in format 2, which older readers take; a format-2 envelope
// claiming a game, an empty game name, or a game beside a DIX state are
// corrupt.
func TestEnvelopeGame(t *testing.T) {
	r := &dixbot.Record{Channel: "c", Guild: "g", Meta: []byte("m"), Game: "qwixx", Data: []byte{2, 9, 9},
		Due: time.UnixMilli(1_800_000_000_123).UTC()}
	b, err := encode(r, 4, false, time.Unix(0, 42))
	require.NoError(t, err)
	assert.Equal(t, byte(4), b[4])
	got, err := decode("c", b)
	require.NoError(t, err)
	assert.Equal(t, "qwixx", got.Game)
	assert.Equal(t, []byte{2, 9, 9}, got.Data)
	assert.Equal(t, r.Due, got.Due)
	clear(b)
	assert.Equal(t, []byte{2, 9, 9}, got.Data, "decode must copy")

	reseal := func(b []byte) []byte {
		return append(b[:len(b)-crcSize], binary.BigEndian.AppendUint32(nil, crc32.Checksum(b[:len(b)-crcSize], crcTable))...)
	}
	b, err = encode(r, 4, false, time.Unix(0, 42))
	require.NoError(t, err)
	b[4] = 3 // as a reader of formats up to 3 wrote it
	got3, err := decode("c", reseal(b))
	require.NoError(t, err)
	assert.Equal(t, got.Data, got3.Data)
	assert.Equal(t, got.Due, got3.Due)

	lobby := &dixbot.Record{Channel: "c", Game: "qwixx"}
	b, err = encode(lobby, 1, false, time.Unix(0, 42))
	require.NoError(t, err)
	got, err = decode("c", b)
	require.NoError(t, err)
	assert.Equal(t, "qwixx", got.Game)
	assert.Nil(t, got.Data)

	logRec := &dixbot.Record{Channel: "c/log", Meta: []byte("m")}
	b, err = encode(logRec, 1, false, time.Unix(0, 42))
	require.NoError(t, err)
	assert.Equal(t, byte(2), b[4], "a record of no game keeps the format older readers take")

	b, err = encode(r, 4, false, time.Unix(0, 42))
	require.NoError(t, err)
	b[4] = 2
	_, err = decode("c", reseal(b))
	assert.ErrorIs(t, err, ErrCorrupt)

	b, err = encode(&dixbot.Record{Channel: "c", Game: "x"}, 1, false, time.Unix(0, 42))
	require.NoError(t, err)
	i := bytes.Index(b, []byte{1, 'x'})
	require.Positive(t, i)
	b = append(append(b[:i:i], 0), b[i+2:]...)
	_, err = decode("c", reseal(b))
	assert.ErrorIs(t, err, ErrCorrupt)

}

// legacyEnvelope is the envelope DIX's own table wrote for r with DIX's
// state (format 2, flagState), which this build no longer writes.
func legacyEnvelope(r *dixbot.Record, state []byte, version uint64, at time.Time) []byte {
	b := make([]byte, headerSize)
	copy(b, envelopeMagic)
	b[4], b[5] = 2, flagState
	binary.BigEndian.PutUint16(b[6:], 1)
	binary.BigEndian.PutUint64(b[8:], version)
	binary.BigEndian.PutUint64(b[16:], uint64(at.UnixNano()))
	for _, f := range [][]byte{[]byte(r.Guild), r.Meta, state} {
		b = binary.AppendUvarint(b, uint64(len(f)))
		b = append(b, f...)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

// An envelope of DIX's own table (formats 1 and 2 with a state) is read
// as a record of DIX, its state's bytes as they are: the store judges no
// game's bytes (DIX's Decode does); written again, it names its game.
func TestEnvelopeLegacyDixState(t *testing.T) {
	g := midGame(t)
	state := stateBytes(t, g)
	for _, format := range []byte{1, 2} {
		b := legacyEnvelope(&dixbot.Record{Guild: "g", Meta: []byte("seats")}, state, 7, ctxTime)
		b[4] = format
		got, err := decode("c", reseal(b))
		require.NoError(t, err)
		assert.Empty(t, got.Game, "the store names no game: the table converts the record")
		assert.Equal(t, state, got.Data)
		assert.Equal(t, []byte("seats"), got.Meta)
		assert.Equal(t, uint64(7), got.Version)
		again, err := encode(got, got.Version, false, got.UpdatedAt)
		require.NoError(t, err)
		assert.Equal(t, byte(2), again[4], "a state of no game is written back as it was")
		back, err := decode("c", again)
		require.NoError(t, err)
		assert.Equal(t, got, back)
	}
	// Bytes no DIX engine reads are kept as they are, for the game to refuse.
	newer := append([]byte(nil), state...)
	newer[0] = 0xff
	got, err := decode("c", legacyEnvelope(&dixbot.Record{}, newer, 1, ctxTime))
	require.NoError(t, err)
	assert.Equal(t, newer, got.Data)
	// A state in a format that names games is damaged.
	b := legacyEnvelope(&dixbot.Record{}, state, 1, ctxTime)
	b[4] = formatGame
	_, err = decode("c", reseal(b))
	assert.ErrorIs(t, err, ErrCorrupt)
}
