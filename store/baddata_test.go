package store

import (
	"encoding/binary"
	"hash/crc32"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/dixgame/dixbot"
)

// putRaw and getRaw bypass a store to write and read the bytes of a record
// (archived: the finished record), the way a damaged disk or a newer build
// would leave them.
func putRaw(t *testing.T, s dixbot.Store, channel string, archived bool, b []byte) {
	t.Helper()
	switch s := s.(type) {
	case *Redis:
		key := s.gameKey(channel)
		if archived {
			key = s.doneKey(channel)
		}
		require.NoError(t, s.rdb.Set(ctxb, key, b, 0).Err())
	case *File:
		bucket := bucketGames
		if archived {
			bucket = bucketDone
		}
		require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket(bucket).Put([]byte(channel), b)
		}))
	default:
		t.Fatalf("putRaw: unknown store %T", s)
	}
}

func getRaw(t *testing.T, s dixbot.Store, channel string) []byte {
	t.Helper()
	switch s := s.(type) {
	case *Redis:
		b, err := s.rdb.Get(ctxb, s.gameKey(channel)).Bytes()
		require.NoError(t, err)
		return b
	case *File:
		var b []byte
		require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
			b = append([]byte(nil), tx.Bucket(bucketGames).Get([]byte(channel))...)
			return nil
		}))
		return b
	}
	t.Fatalf("getRaw: unknown store %T", s)
	return nil
}

// reseal recomputes the checksum of an envelope edited in place, so that a
// test reaches the check after the checksum.
func reseal(b []byte) []byte {
	body := b[:len(b)-crcSize]
	binary.BigEndian.PutUint32(b[len(body):], crc32.Checksum(body, crcTable))
	return b
}

// badEnvelopes returns damaged or too new encodings of a valid record, each
// with the error it must give.
func badEnvelopes(t testing.TB, at time.Time) []struct {
	name string
	b    []byte
	want error
} {
	valid, err := encode(&dixbot.Record{Channel: "c", Guild: "g1", Meta: []byte("12345")}, 7, false, at)
	require.NoError(t, err)
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), valid...)) }
	return []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", []byte{}, dixbot.ErrCorrupt},
		{"garbage", []byte("this is not a record at all, just text"), dixbot.ErrCorrupt},
		{"magic only", []byte(envelopeMagic), dixbot.ErrCorrupt},
		{"truncated header", valid[:headerSize-3], dixbot.ErrCorrupt},
		{"truncated body", valid[:len(valid)-6], dixbot.ErrCorrupt},
		{"truncated checksum", valid[:len(valid)-1], dixbot.ErrCorrupt},
		{"flipped meta byte", edit(func(b []byte) []byte { b[len(b)-crcSize-2] ^= 0x40; return b }), dixbot.ErrCorrupt},
		{"format zero", edit(func(b []byte) []byte { b[4] = 0; return reseal(b) }), dixbot.ErrCorrupt},
		{"unknown flag", edit(func(b []byte) []byte { b[5] |= 0x80; return reseal(b) }), dixbot.ErrCorrupt},
		{"meta length past end", edit(func(b []byte) []byte { b[headerSize+3] = 0x7f; return reseal(b) }), dixbot.ErrCorrupt},
		{"trailing bytes", edit(func(b []byte) []byte {
			b = append(b[:len(b)-crcSize], 1, 2, 3, 0, 0, 0, 0)
			return reseal(b)
		}), dixbot.ErrCorrupt},
		{"state flag without state", edit(func(b []byte) []byte { b[5] |= flagState; return reseal(b) }), dixbot.ErrCorrupt},
		{"newer envelope", edit(func(b []byte) []byte { b[4] = envelopeVersion + 1; return b }), dixbot.ErrSchemaTooNew},
		{"newer envelope, other layout", append([]byte(envelopeMagic), envelopeVersion+1, 9, 9), dixbot.ErrSchemaTooNew},
	}
}

func testBadStoredData(t *testing.T, e env) {
	s := e.open(Options{})
	for _, tc := range badEnvelopes(t, e.now()) {
		t.Run(tc.name, func(t *testing.T) {
			const ch = "bad"
			putRaw(t, s, ch, false, tc.b)

			_, err := s.Get(ctxb, ch)
			assert.ErrorIs(t, err, tc.want, "Get")
			called := false
			_, err = s.Update(ctxb, ch, "i1", func(r *dixbot.Record) error { called = true; return incr(r) })
			assert.ErrorIs(t, err, tc.want, "Update")
			assert.False(t, called, "fn called on an unreadable record")
			assert.Equal(t, string(tc.b), string(getRaw(t, s, ch)), "the stored bytes changed")
			assert.ErrorIs(t, s.Finish(ctxb, ch), tc.want, "Finish")
			assert.ErrorIs(t, s.Create(ctxb, &dixbot.Record{Channel: ch}), dixbot.ErrExists,
				"an unreadable game still occupies the channel")

			require.NoError(t, s.Delete(ctxb, ch), "Delete clears an unreadable record")
			_, err = s.Get(ctxb, ch)
			assert.ErrorIs(t, err, dixbot.ErrNotFound)

			putRaw(t, s, ch, true, tc.b)
			_, err = s.Get(ctxb, ch)
			assert.ErrorIs(t, err, tc.want, "Get archived")
			require.NoError(t, s.Delete(ctxb, ch))
		})
	}
}
