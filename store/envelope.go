package store

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"time"

	"github.com/dixgame/dixbot"
)

// The envelope around one stored record. All integers are big-endian.
//
//	offset size
//	0      4    magic "DIXr"
//	4      1    envelope format version (envelopeVersion)
//	5      1    flags (flagFinished, flagState, flagDue, flagGame)
//	6      2    schema (headerSchema; read by no reader of this build)
//	8      8    record version
//	16     8    updated at, Unix nanoseconds
//	24     …    guild, meta, state: each a uvarint length then the bytes
//	            (state only with flagState: formats 1 and 2)
//	…      …    game name, game data: each a uvarint length then the bytes
//	            (only with flagGame; formats 3 and 4)
//	…      8    due time, Unix milliseconds (only with flagDue; format 2)
//	end-4  4    CRC-32C of everything before it
//
// A record names its game and keeps the game's state as bytes, which the
// game's own Decode reads (and refuses when too new, engine.ErrSchemaTooNew):
// the store reads no game. A record of a game (Game set) is written in
// format 4, of format 3's layout: processes that read up to format 3
// (whose table kept DIX apart, and read a DIX record of the shared table
// as no game of theirs) refuse it (ErrSchemaTooNew) rather than misread it
// or write over it. A record of no game (a game's log) is written in
// format 2, which every reader reads. Formats 1 and 2 could hold a state
// that names no game (flagState, written by the table one game had before
// the shared table): it is read so, in Data with no Game, for the table to
// convert, and written back so until it is. Format 3 is still read.
//
// The first 16 bytes are the compare-and-set token of the Redis store: any
// write changes the version, and a writer with another layout changes the
// magic, format or schema bytes.
const (
	envelopeMagic   = "DIXr"
	envelopeVersion = 4 // the newest format read: 2 added flagDue, 3 flagGame, 4 the shared table's records; formats 1 to 3 are still read
	formatGame      = 4 // the format a record with flagGame is written in
	firstGameFormat = 3 // the first format with flagGame
	headerSize      = 24
	casTokenSize    = 16
	crcSize         = 4

	// headerSchema is the schema number a writer puts in the header: the
	// one DIX's own table wrote there (its engine's schema), which
	// processes that read only formats 1 and 2 check against theirs.
	headerSchema = 1
	flagFinished = 1 << 0
	flagState    = 1 << 1
	flagDue      = 1 << 2
	flagGame     = 1 << 3
	knownFlags   = flagFinished | flagState | flagDue | flagGame
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// encode returns the envelope of r with the given version, finished flag and
// time. It does not modify r.
func encode(r *dixbot.Record, version uint64, finished bool, at time.Time) ([]byte, error) {
	var flags byte
	if finished {
		flags |= flagFinished
	}
	if !r.Due.IsZero() {
		flags |= flagDue
	}
	format := byte(2)
	switch {
	case r.Game != "":
		flags |= flagGame
		format = formatGame
	case r.Data != nil:
		// A state that names no game stays in format 2, as it was read.
		flags |= flagState
	}
	size := headerSize + 4*binary.MaxVarintLen64 + len(r.Guild) + len(r.Meta) + len(r.Game) + len(r.Data) + 8 + crcSize
	b := make([]byte, headerSize, size)
	copy(b, envelopeMagic)
	b[4] = format
	b[5] = flags
	binary.BigEndian.PutUint16(b[6:], headerSchema)
	binary.BigEndian.PutUint64(b[8:], version)
	binary.BigEndian.PutUint64(b[16:], uint64(at.UnixNano()))
	b = binary.AppendUvarint(b, uint64(len(r.Guild)))
	b = append(b, r.Guild...)
	b = binary.AppendUvarint(b, uint64(len(r.Meta)))
	b = append(b, r.Meta...)
	if flags&flagState != 0 {
		b = binary.AppendUvarint(b, uint64(len(r.Data)))
		b = append(b, r.Data...)
	}
	if flags&flagGame != 0 {
		b = binary.AppendUvarint(b, uint64(len(r.Game)))
		b = append(b, r.Game...)
		b = binary.AppendUvarint(b, uint64(len(r.Data)))
		b = append(b, r.Data...)
	}
	if flags&flagDue != 0 {
		b = binary.BigEndian.AppendUint64(b, uint64(r.Due.UnixMilli()))
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crcTable)), nil
}

// decode reads an envelope stored for channel. It never keeps a reference to
// b (bbolt's bytes are only valid inside their transaction) and never panics:
// damaged bytes give ErrCorrupt, bytes from newer code ErrSchemaTooNew.
func decode(channel string, b []byte) (*dixbot.Record, error) {
	corrupt := func(why string) error {
		return fmt.Errorf("%w: channel %s: %s", ErrCorrupt, channel, why)
	}
	if len(b) < 5 {
		return nil, corrupt(fmt.Sprintf("%d bytes", len(b)))
	}
	if string(b[:4]) != envelopeMagic {
		return nil, corrupt("bad magic")
	}
	// Checked before anything else: a newer format may have another layout.
	switch v := b[4]; {
	case v > envelopeVersion:
		return nil, fmt.Errorf("%w: channel %s: envelope format %d, this build reads up to %d",
			ErrSchemaTooNew, channel, v, envelopeVersion)
	case v == 0:
		return nil, corrupt("envelope format 0")
	}
	if len(b) < headerSize+crcSize {
		return nil, corrupt(fmt.Sprintf("truncated: %d bytes", len(b)))
	}
	body, sum := b[:len(b)-crcSize], binary.BigEndian.Uint32(b[len(b)-crcSize:])
	if crc32.Checksum(body, crcTable) != sum {
		return nil, corrupt("checksum mismatch")
	}
	flags := b[5]
	if b[4] < 2 && flags&flagDue != 0 {
		return nil, corrupt("due time in format 1")
	}
	if b[4] < firstGameFormat && flags&flagGame != 0 {
		return nil, corrupt(fmt.Sprintf("game in format %d", b[4]))
	}
	if b[4] >= firstGameFormat && flags&flagState != 0 {
		return nil, corrupt(fmt.Sprintf("a DIX state in format %d", b[4]))
	}
	if flags&flagGame != 0 && flags&flagState != 0 {
		return nil, corrupt("a game and a DIX state")
	}
	if flags&^knownFlags != 0 {
		return nil, corrupt(fmt.Sprintf("unknown flags %#x", flags))
	}
	r := &dixbot.Record{
		Channel:   channel,
		Version:   binary.BigEndian.Uint64(b[8:]),
		Finished:  flags&flagFinished != 0,
		UpdatedAt: time.Unix(0, int64(binary.BigEndian.Uint64(b[16:]))).UTC(),
	}
	rest := body[headerSize:]
	field := func(name string) ([]byte, error) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return nil, corrupt("bad " + name + " length")
		}
		f := rest[k : k+int(n)]
		rest = rest[k+int(n):]
		return f, nil
	}
	guild, err := field("guild")
	if err != nil {
		return nil, err
	}
	r.Guild = string(guild)
	meta, err := field("meta")
	if err != nil {
		return nil, err
	}
	if len(meta) > 0 {
		r.Meta = append([]byte(nil), meta...)
	}
	if flags&flagState != 0 {
		state, err := field("state")
		if err != nil {
			return nil, err
		}
		r.Data = append([]byte(nil), state...)
	}
	if flags&flagGame != 0 {
		game, err := field("game")
		if err != nil {
			return nil, err
		}
		if len(game) == 0 {
			return nil, corrupt("empty game name")
		}
		r.Game = string(game)
		data, err := field("data")
		if err != nil {
			return nil, err
		}
		if len(data) > 0 {
			r.Data = append([]byte(nil), data...)
		}
	}
	if flags&flagDue != 0 {
		if len(rest) < 8 {
			return nil, corrupt("truncated due time")
		}
		r.Due = time.UnixMilli(int64(binary.BigEndian.Uint64(rest))).UTC()
		rest = rest[8:]
	}
	if len(rest) != 0 {
		return nil, corrupt(fmt.Sprintf("%d trailing bytes", len(rest)))
	}
	return r, nil
}

// updatedAt reads the update time of an envelope without decoding it, for
// expiry checks. ok is false when b is not a readable envelope.
func updatedAt(b []byte) (t time.Time, ok bool) {
	if len(b) < headerSize || string(b[:4]) != envelopeMagic || b[4] == 0 || b[4] > envelopeVersion {
		return time.Time{}, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(b[16:]))), true
}

// checkRecord rejects records the store cannot hold.
func checkRecord(r *dixbot.Record) error {
	switch {
	case r == nil:
		return fmt.Errorf("%w: nil record", ErrBadRecord)
	case r.Channel == "":
		return fmt.Errorf("%w: empty channel id", ErrBadRecord)
	}
	return nil
}
