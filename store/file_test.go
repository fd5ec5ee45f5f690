package store

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/dixgame/dixbot"
)

func fileEnv(t *testing.T) env { return fileEnvAt(0)(t) }

// fileEnvAt opens file stores whose clock starts offset from the wall clock
// and moves only when a test lets time pass.
func fileEnvAt(offset time.Duration) newEnv {
	return func(t *testing.T) env {
		path := filepath.Join(t.TempDir(), "dix.db")
		clock := newManualClock(time.Now().Add(offset))
		return env{clock: clock, expiry: time.Second, open: func(o Options) dixbot.Store {
			t.Helper()
			if o.Now == nil {
				o.Now = clock.now
			}
			s, err := OpenFile(path, o)
			require.NoError(t, err)
			t.Cleanup(func() { s.Close() })
			return s
		}}
	}
}

func TestFileSuite(t *testing.T) {
	t.Parallel()
	runSuite(t, fileEnv)
}

// TestFileSuiteAYearAhead runs the suite with the store's clock a year
// ahead of the wall clock and of every date the tests' fixtures name.
func TestFileSuiteAYearAhead(t *testing.T) {
	t.Parallel()
	runSuite(t, fileEnvAt(yearAhead))
}

func TestFileLockedInProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dix.db")
	s, err := OpenFile(path, Options{})
	require.NoError(t, err)
	defer s.Close()
	create(t, s, "c1", "")

	// flock locks belong to the open file, so a second open in the same
	// process conflicts as a second process would.
	second, err := OpenFile(path, Options{LockTimeout: 50 * time.Millisecond})
	require.ErrorIs(t, err, dixbot.ErrLocked)
	assert.Nil(t, second)
	assert.Contains(t, err.Error(), path, "the message names the file")

	require.NoError(t, s.Close())
	again, err := OpenFile(path, Options{})
	require.NoError(t, err, "the lock is released by Close")
	defer again.Close()
	assert.Equal(t, 0, counter(t, get(t, again, "c1")))
}

// TestFileLockedByOtherProcess runs the test binary again as a second
// process that holds the file while this one tries to open it.
func TestFileLockedByOtherProcess(t *testing.T) {
	if path := os.Getenv("DIX_STORE_HOLD_FILE"); path != "" {
		s, err := OpenFile(path, Options{})
		if err != nil {
			os.Stdout.WriteString("open failed: " + err.Error() + "\n")
			os.Exit(2)
		}
		os.Stdout.WriteString("holding\n")
		// Hold until the parent closes our stdin.
		buf := make([]byte, 1)
		_, _ = os.Stdin.Read(buf)
		s.Close()
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "dix.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestFileLockedByOtherProcess$")
	cmd.Env = append(os.Environ(), "DIX_STORE_HOLD_FILE="+path)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	holding := false
	for !holding && lines.Scan() {
		holding = lines.Text() == "holding"
	}
	require.True(t, holding, "the other process did not open the file: %v", lines.Err())

	_, err = OpenFile(path, Options{LockTimeout: 50 * time.Millisecond})
	require.ErrorIs(t, err, dixbot.ErrLocked)
	assert.Contains(t, err.Error(), path)

	require.NoError(t, stdin.Close())
	require.NoError(t, cmd.Wait())
	s, err := OpenFile(path, Options{})
	require.NoError(t, err, "the lock is released when the other process exits")
	s.Close()
}

func TestFileNotAStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dix.db")
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("not a bbolt file ", 1000)), 0o600))
	_, err := OpenFile(path, Options{})
	assert.ErrorIs(t, err, dixbot.ErrCorrupt)
}

func TestFileNewerLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dix.db")
	s, err := OpenFile(path, Options{})
	require.NoError(t, err)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyFormat, []byte{0, 0, 0, fileFormat + 1})
	}))
	require.NoError(t, s.Close())
	_, err = OpenFile(path, Options{})
	assert.ErrorIs(t, err, dixbot.ErrSchemaTooNew)
}

func TestFileSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dix.db")
	s, err := OpenFile(path, Options{GameTTL: time.Hour, ArchiveTTL: 2 * time.Hour, InteractionTTL: time.Minute})
	require.NoError(t, err)
	defer s.Close()
	create(t, s, "c1", "g")
	create(t, s, "c2", "g")
	_, err = s.Update(ctxb, "c1", "click", incr)
	require.NoError(t, err)
	require.NoError(t, s.Finish(ctxb, "c2"))
	putRaw(t, s, "bad", false, []byte("garbage"))

	count := func(bucket []byte) int {
		n := 0
		require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
			n = tx.Bucket(bucket).Stats().KeyN
			return nil
		}))
		return n
	}
	now := time.Now()
	tests := []struct {
		name                   string
		at                     time.Time
		deleted                int
		games, done, ix, index int
	}{
		{"nothing expired", now, 0, 2, 1, 1, 1},
		{"interaction ids", now.Add(2 * time.Minute), 1, 2, 1, 0, 1},
		{"active games", now.Add(90 * time.Minute), 1, 1, 1, 0, 0},
		{"archives", now.Add(3 * time.Hour), 1, 1, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := s.sweep(tc.at)
			require.NoError(t, err)
			assert.Equal(t, tc.deleted, n, "deleted")
			assert.Equal(t, tc.games, count(bucketGames), "games (the unreadable one is kept)")
			assert.Equal(t, tc.done, count(bucketDone), "archives")
			assert.Equal(t, tc.ix, count(bucketIx), "interaction ids")
			assert.Equal(t, tc.index, count(bucketActive), "index entries")
		})
	}
}

func TestFileOptions(t *testing.T) {
	_, err := OpenFile(filepath.Join(t.TempDir(), "x.db"), Options{GameTTL: -1})
	assert.ErrorIs(t, err, ErrBadOptions)
	_, err = OpenFile(filepath.Join(t.TempDir(), "missing-dir", "x.db"), Options{})
	assert.Error(t, err)
}
