package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/dixgame/dixbot"
)

// File is the embedded store: one bbolt file on the local disk, for a bot
// that runs as a single process. Buckets:
//
//	games   channel → active record (envelope)
//	done    channel → archived record
//	ix      channel NUL interaction id → expiry (Unix ns, big-endian)
//	active  guild NUL channel → nothing (index of active games; none for a
//	        record without a guild)
//	due     channel → due time of its active record (Unix ms, big-endian)
//	meta    "format" → file layout version
//	settings  see file_keep.go
//
// Writes are bbolt transactions: one writer at a time, so Update never
// conflicts and its version check is implicit. Concurrent writes are grouped
// into one transaction (bbolt's Batch) to share the disk sync; a write with
// no other in progress commits alone, without Batch's wait. Expiry is
// computed from each record's update time: expired entries are ignored on
// read and deleted by a periodic sweep.
//
// Local calls cannot hang like network calls, so Options.Timeout is not
// applied; a context already done fails the call with ErrUnavailable.
// A File is safe for concurrent use by many goroutines; a second process
// opening the same file gets ErrLocked.
type File struct {
	db   *bolt.DB
	o    Options
	path string

	writing   atomic.Int32 // writes in progress
	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

var _ dixbot.Store = (*File)(nil)

var (
	bucketGames  = []byte("games")
	bucketDone   = []byte("done")
	bucketIx     = []byte("ix")
	bucketActive = []byte("active")
	bucketMeta   = []byte("meta")
	bucketDue    = []byte("due") // added to layout 1: older builds ignore it
	keyFormat    = []byte("format")
)

// fileFormat is the layout of the buckets above.
const fileFormat = 1

// batchDelay is how long a write waits for others to share its transaction.
// bbolt's default (10 ms) would be the whole latency of a lone click.
const batchDelay = time.Millisecond

// OpenFile opens (creating it if needed) the store file at path. It returns
// ErrLocked, naming the file, when another process holds it open for longer
// than Options.LockTimeout; ErrCorrupt when the file is not a store;
// ErrSchemaTooNew when a newer build laid it out.
func OpenFile(path string, o Options) (*File, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.LockTimeout})
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s is held by another process (is another bot running with the same data file?)", ErrLocked, path)
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum), errors.Is(err, bolterrors.ErrVersionMismatch):
		return nil, fmt.Errorf("%w: %s is not a readable store file: %w", ErrCorrupt, path, err)
	case err != nil:
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.MaxBatchDelay = batchDelay
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketGames, bucketDone, bucketIx, bucketActive, bucketMeta, bucketDue, bucketSettings} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		v := meta.Get(keyFormat)
		switch {
		case v == nil:
			return meta.Put(keyFormat, binary.BigEndian.AppendUint32(nil, fileFormat))
		case len(v) != 4:
			return fmt.Errorf("%w: %s: bad format marker", ErrCorrupt, path)
		case binary.BigEndian.Uint32(v) > fileFormat:
			return fmt.Errorf("%w: %s has layout %d, this build reads up to %d",
				ErrSchemaTooNew, path, binary.BigEndian.Uint32(v), fileFormat)
		}
		return nil
	})
	if err != nil {
		db.Close()
		if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrSchemaTooNew) {
			return nil, err
		}
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &File{db: db, o: o, path: path, stop: make(chan struct{})}
	s.wg.Add(1)
	go s.sweeper()
	return s, nil
}

// live reports whether an entry written at the time recorded in b is still
// within ttl. Unreadable bytes count as live, so that reading them reports
// the damage instead of hiding it.
func live(b []byte, ttl time.Duration, now time.Time) bool {
	t, ok := updatedAt(b)
	return !ok || now.Sub(t) < ttl
}

func ixKey(channel, id string) []byte { return []byte(channel + "\x00" + id) }

func activeKey(guild, channel string) []byte { return []byte(guild + "\x00" + channel) }

func (s *File) view(ctx context.Context, op string, fn func(tx *bolt.Tx, now time.Time) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: %s: %w: %w", op, ErrUnavailable, err)
	}
	if err := s.db.View(func(tx *bolt.Tx) error { return fn(tx, s.o.Now()) }); err != nil {
		return s.mapErr(op, err)
	}
	return nil
}

// write runs fn in a write transaction, possibly shared with other writes.
// bbolt may call fn more than once (when another call of the batch fails),
// so fn must reset what it reports; it returns an error only for storage
// failures, and reports refusals (ErrExists, …) through its closure after
// writing nothing, so one refused call does not roll back the batch.
func (s *File) write(ctx context.Context, op string, fn func(tx *bolt.Tx, now time.Time) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: %s: %w: %w", op, ErrUnavailable, err)
	}
	txFn := func(tx *bolt.Tx) error { return fn(tx, s.o.Now()) }
	// A lone write commits at once; writes that overlap share a transaction
	// and its disk sync, at the cost of waiting up to batchDelay for company.
	var err error
	if s.writing.Add(1) == 1 {
		err = s.db.Update(txFn)
	} else {
		err = s.db.Batch(txFn)
	}
	s.writing.Add(-1)
	if err != nil {
		return s.mapErr(op, err)
	}
	return nil
}

func (s *File) mapErr(op string, err error) error {
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return fmt.Errorf("store: %s: %w: %s is closed", op, ErrUnavailable, s.path)
	}
	return fmt.Errorf("store: %s: %s: %w", op, s.path, err)
}

// Create stores r as the channel's active game with version 1 and sets
// r.Version, r.UpdatedAt and r.Finished. ErrExists when the channel has an
// active game (an unreadable one counts as active: Delete clears it),
// ErrBadRecord, ErrUnavailable.
func (s *File) Create(ctx context.Context, r *dixbot.Record) error {
	if err := checkRecord(r); err != nil {
		return err
	}
	var res error
	var at time.Time
	err := s.write(ctx, "create "+r.Channel, func(tx *bolt.Tx, now time.Time) error {
		res, at = nil, now
		games := tx.Bucket(bucketGames)
		if old := games.Get([]byte(r.Channel)); old != nil {
			if live(old, s.o.GameTTL, now) {
				res = fmt.Errorf("%w: channel %s", ErrExists, r.Channel)
				return nil
			}
			// An expired game the sweep has not reached yet.
			if err := s.unindex(tx, r.Channel, old); err != nil {
				return err
			}
		}
		val, err := encode(r, 1, false, now)
		if err != nil {
			res = err
			return nil
		}
		if err := games.Put([]byte(r.Channel), val); err != nil {
			return err
		}
		if err := setDue(tx, r.Channel, r.Due); err != nil {
			return err
		}
		if r.Guild == "" {
			return nil // a record without a guild is in no index
		}
		return tx.Bucket(bucketActive).Put(activeKey(r.Guild, r.Channel), nil)
	})
	if err != nil {
		return err
	}
	if res != nil {
		return res
	}
	r.Version, r.UpdatedAt, r.Finished = 1, at.UTC(), false
	return nil
}

// Get returns the active record, else the archived one (Finished true), else
// ErrNotFound; expired entries count as absent. ErrCorrupt, ErrSchemaTooNew,
// ErrUnavailable.
func (s *File) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	var rec *dixbot.Record
	var res error
	err := s.view(ctx, "get "+channel, func(tx *bolt.Tx, now time.Time) error {
		if b := tx.Bucket(bucketGames).Get([]byte(channel)); b != nil && live(b, s.o.GameTTL, now) {
			rec, res = decode(channel, b)
			return nil
		}
		if b := tx.Bucket(bucketDone).Get([]byte(channel)); b != nil && live(b, s.o.ArchiveTTL, now) {
			rec, res = decode(channel, b)
			return nil
		}
		res = notFound(channel)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rec, res
}

// Update is Redis.Update for the file: it loads the active record, calls fn
// and writes the next version, all in one transaction (fn must not call the
// store). A non-empty interactionID already applied within
// Options.InteractionTTL gives ErrDuplicate before fn is called; otherwise it
// is recorded with the write. Errors: ErrNotFound, ErrDuplicate, the error of
// fn as is, ErrCorrupt, ErrSchemaTooNew, ErrUnavailable. Never ErrConflict.
func (s *File) Update(ctx context.Context, channel, interactionID string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	var out *dixbot.Record
	var res error
	err := s.write(ctx, "update "+channel, func(tx *bolt.Tx, now time.Time) error {
		out, res = nil, nil
		ix := tx.Bucket(bucketIx)
		if interactionID != "" {
			if v := ix.Get(ixKey(channel, interactionID)); len(v) == 8 && now.UnixNano() < int64(binary.BigEndian.Uint64(v)) {
				res = duplicate(channel, interactionID)
				return nil
			}
		}
		games := tx.Bucket(bucketGames)
		b := games.Get([]byte(channel))
		if b == nil || !live(b, s.o.GameTTL, now) {
			res = notFound(channel)
			return nil
		}
		rec, err := decode(channel, b)
		if err != nil {
			res = err
			return nil
		}
		guild, version := rec.Guild, rec.Version
		if err := fn(rec); err != nil {
			res = err
			return nil
		}
		rec.Channel, rec.Guild, rec.Version, rec.Finished, rec.UpdatedAt = channel, guild, version+1, false, now.UTC()
		val, err := encode(rec, rec.Version, false, now)
		if err != nil {
			res = err
			return nil
		}
		if err := games.Put([]byte(channel), val); err != nil {
			return err
		}
		if err := setDue(tx, channel, rec.Due); err != nil {
			return err
		}
		if interactionID != "" {
			exp := binary.BigEndian.AppendUint64(nil, uint64(now.Add(s.o.InteractionTTL).UnixNano()))
			if err := ix.Put(ixKey(channel, interactionID), exp); err != nil {
				return err
			}
		}
		out = rec
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, res
}

// Finish archives the active record (Finished true, next version, kept for
// Options.ArchiveTTL) and frees the channel. ErrNotFound, ErrCorrupt,
// ErrSchemaTooNew, ErrUnavailable.
func (s *File) Finish(ctx context.Context, channel string) error {
	return s.FinishIf(ctx, channel, nil)
}

// FinishIf is Finish of the active record only when same reports that it
// is the one meant (nil: any), in the same transaction; a record same
// refuses gives ErrNotFound, as when there is none.
func (s *File) FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error {
	var res error
	err := s.write(ctx, "finish "+channel, func(tx *bolt.Tx, now time.Time) error {
		res = nil
		games := tx.Bucket(bucketGames)
		b := games.Get([]byte(channel))
		if b == nil || !live(b, s.o.GameTTL, now) {
			res = notFound(channel)
			return nil
		}
		rec, err := decode(channel, b)
		if err != nil {
			res = err
			return nil
		}
		if same != nil && !same(rec) {
			res = notFound(channel)
			return nil
		}
		val, err := encode(rec, rec.Version+1, true, now)
		if err != nil {
			res = err
			return nil
		}
		if err := tx.Bucket(bucketDone).Put([]byte(channel), val); err != nil {
			return err
		}
		if err := games.Delete([]byte(channel)); err != nil {
			return err
		}
		if err := setDue(tx, channel, time.Time{}); err != nil {
			return err
		}
		return tx.Bucket(bucketActive).Delete(activeKey(rec.Guild, channel))
	})
	if err != nil {
		return err
	}
	return res
}

// Delete removes the channel's active and archived records. ErrNotFound when
// there was neither (expired ones count as absent), ErrUnavailable.
func (s *File) Delete(ctx context.Context, channel string) error {
	var res error
	err := s.write(ctx, "delete "+channel, func(tx *bolt.Tx, now time.Time) error {
		res = nil
		found := false
		games, done := tx.Bucket(bucketGames), tx.Bucket(bucketDone)
		if b := games.Get([]byte(channel)); b != nil {
			found = live(b, s.o.GameTTL, now)
			if err := s.unindex(tx, channel, b); err != nil {
				return err
			}
			if err := games.Delete([]byte(channel)); err != nil {
				return err
			}
		}
		if b := done.Get([]byte(channel)); b != nil {
			found = found || live(b, s.o.ArchiveTTL, now)
			if err := done.Delete([]byte(channel)); err != nil {
				return err
			}
		}
		if !found {
			res = notFound(channel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return res
}

// unindex removes the index entry of the active record b of channel. The
// guild is read from the record; for an unreadable record the index is
// scanned, which is rare and bounded by the number of active games.
func (s *File) unindex(tx *bolt.Tx, channel string, b []byte) error {
	if err := setDue(tx, channel, time.Time{}); err != nil {
		return err
	}
	active := tx.Bucket(bucketActive)
	if rec, err := decode(channel, b); err == nil {
		return active.Delete(activeKey(rec.Guild, channel))
	}
	suffix := []byte("\x00" + channel)
	var keys [][]byte
	c := active.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if bytes.HasSuffix(k, suffix) {
			keys = append(keys, bytes.Clone(k))
		}
	}
	for _, k := range keys {
		if err := active.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// Active lists, sorted, the channels of guild with a live active game.
// ErrUnavailable.
func (s *File) Active(ctx context.Context, guild string) ([]string, error) {
	var out []string
	err := s.view(ctx, "active "+guild, func(tx *bolt.Tx, now time.Time) error {
		out = []string{}
		games := tx.Bucket(bucketGames)
		prefix := []byte(guild + "\x00")
		c := tx.Bucket(bucketActive).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			ch := string(k[len(prefix):])
			if b := games.Get([]byte(ch)); b != nil && live(b, s.o.GameTTL, now) {
				out = append(out, ch)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// setDue records (or, for the zero time, forgets) the due time of channel.
func setDue(tx *bolt.Tx, channel string, due time.Time) error {
	b := tx.Bucket(bucketDue)
	if due.IsZero() {
		return b.Delete([]byte(channel))
	}
	return b.Put([]byte(channel), binary.BigEndian.AppendUint64(nil, uint64(due.UnixMilli())))
}

// Due lists up to max channels whose live active record is due at or
// before now, earliest first. ErrUnavailable.
func (s *File) Due(ctx context.Context, now time.Time, max int) ([]string, error) {
	type entry struct {
		ch  string
		due int64
	}
	var found []entry
	err := s.view(ctx, "due", func(tx *bolt.Tx, _ time.Time) error {
		games := tx.Bucket(bucketGames)
		return tx.Bucket(bucketDue).ForEach(func(k, v []byte) error {
			if len(v) != 8 {
				return nil
			}
			due := int64(binary.BigEndian.Uint64(v))
			if due > now.UnixMilli() {
				return nil
			}
			if b := games.Get(k); b != nil && live(b, s.o.GameTTL, now) {
				found = append(found, entry{string(k), due})
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b entry) int { return cmp.Or(cmp.Compare(a.due, b.due), cmp.Compare(a.ch, b.ch)) })
	out := []string{}
	for _, e := range found[:min(max, len(found))] {
		out = append(out, e.ch)
	}
	return out, nil
}

// Ping reports whether the file is open (ErrUnavailable after Close).
func (s *File) Ping(ctx context.Context) error {
	return s.view(ctx, "ping", func(*bolt.Tx, time.Time) error { return nil })
}

// Close stops the sweep and closes the file, releasing its lock. Calls after
// Close return ErrUnavailable.
func (s *File) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.wg.Wait()
		s.closeErr = s.db.Close()
	})
	return s.closeErr
}

func (s *File) sweeper() {
	defer s.wg.Done()
	t := time.NewTicker(s.o.SweepInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			// A failed sweep is retried at the next tick; reads already
			// ignore what it would have deleted.
			_, _ = s.sweep(s.o.Now())
		}
	}
}

// sweep deletes the entries expired at now: active games (and their index
// entries), archives and interaction ids. It returns how many it deleted.
// Unreadable records are kept for inspection (Delete removes them).
func (s *File) sweep(now time.Time) (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		n = 0
		games, done, ix := tx.Bucket(bucketGames), tx.Bucket(bucketDone), tx.Bucket(bucketIx)
		var expiredGames, expiredDone, expiredIx [][]byte
		err := games.ForEach(func(k, v []byte) error {
			if t, ok := updatedAt(v); ok && now.Sub(t) >= s.o.GameTTL {
				expiredGames = append(expiredGames, bytes.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		err = done.ForEach(func(k, v []byte) error {
			if t, ok := updatedAt(v); ok && now.Sub(t) >= s.o.ArchiveTTL {
				expiredDone = append(expiredDone, bytes.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		err = ix.ForEach(func(k, v []byte) error {
			if len(v) != 8 || now.UnixNano() >= int64(binary.BigEndian.Uint64(v)) {
				expiredIx = append(expiredIx, bytes.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range expiredGames {
			if err := s.unindex(tx, string(k), games.Get(k)); err != nil {
				return err
			}
			if err := games.Delete(k); err != nil {
				return err
			}
		}
		for _, k := range expiredDone {
			if err := done.Delete(k); err != nil {
				return err
			}
		}
		for _, k := range expiredIx {
			if err := ix.Delete(k); err != nil {
				return err
			}
		}
		n = len(expiredGames) + len(expiredDone) + len(expiredIx)
		return nil
	})
	if err != nil {
		return 0, s.mapErr("sweep", err)
	}
	return n, nil
}
