package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/store"
)

// Latencies of the replica kill test: the network to Discord, and to Redis
// in each direction.
const (
	killAPILatency   = 50 * time.Millisecond
	killRedisLatency = 15 * time.Millisecond
	// missingAfter is how long a board may take to show a decision before
	// it counts as missing.
	missingAfter = 10 * time.Second
	// stuckAfter is how long a game may go without a board for its
	// decision before it counts as stuck.
	stuckAfter = 90 * time.Second
)

// TestReplicaKills: three dixbot replicas in HTTP interactions mode on one
// Redis, behind the stand-in's load balancer, with 50 ms to Discord and
// 15 ms each way to Redis. Every few seconds one replica, at random, is
// killed (SIGKILL) and started again, while simulated players play games
// at three tables. Measured: clicks applied but never answered (outside
// the ones in flight at a kill), boards posted twice for the same
// decision, boards missing 10 s or more, games finished. Every figure but
// the last must be 0 and every game started must finish, with nobody
// repairing a board by hand.
//
// Qwixx tables (DIX_KILL_QWIXX, default 2) and Dixxit tables
// (DIX_KILL_DIXXIT, default 1) play beside the DIX ones, game after game
// in their channel, and their counts too must be 0: deferred clicks
// neither applied nor told, channels where no start brings a lobby back,
// lobbies whose Join finds no record, boards that kept live buttons 3 s or
// more after a later one was posted. Every game's log is checked against
// the moves made (kills_log_test.go): every log shows its game's end,
// every move seen applied is logged, none twice.
// DIX_KILL_FREEZES freezes Redis 2.5 s (SIGSTOP) that many times during
// the kills.
//
// DIX_KILLS sets the number of kills (default 3).
func TestReplicaKills(t *testing.T) {
	t.Parallel()
	kills := 3
	if v, err := strconv.Atoi(os.Getenv("DIX_KILLS")); err == nil && v > 0 {
		kills = v
	}
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true, APILatency: killAPILatency})
	rs := redistest.Start(t)
	redisProxy := startProxy(t, rs.Addr(), killRedisLatency)
	env := []string{
		"DISCORD_TOKEN=" + fake.Token(),
		"DISCORD_API_URL=" + fake.URL(),
		"DISCORD_PUBLIC_KEY=" + fake.PublicKey(),
		"INTERACTIONS_ADDR=127.0.0.1:0",
		"REDIS_URL=" + strings.Replace(rs.URL(), rs.Addr(), redisProxy.Addr(), 1),
		"REDIS_PREFIX=kills:",
		"LOG_LEVEL=info",
	}
	const n = 3
	replicas := make([]*process, n)
	fronts := make([]*tcpProxy, n) // each replica's stable address
	var urls []string
	var old []*process // killed replicas, for their logs
	for i := range n {
		replicas[i] = startProcess(t, env)
		fronts[i] = startProxy(t, loggedAddr(t, replicas[i].log(), "serving interactions"), 0)
		urls = append(urls, "http://"+fronts[i].Addr()+"/interactions")
	}
	require.NoError(t, fake.SetInteractionsEndpoints(waitCtx(t), urls...))
	st, err := store.OpenRedis(context.Background(), store.Options{URL: rs.URL(), Prefix: "kills:"})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })

	k := &killRun{t: t, fake: fake, st: st, games: map[string]string{}, finishedOf: map[string]int{}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.play(i, stop)
		}()
	}
	qwixxTables := 2
	if v, err := strconv.Atoi(os.Getenv("DIX_KILL_QWIXX")); err == nil && v >= 0 {
		qwixxTables = v
	}
	for i := range qwixxTables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.playQwixx(i, stop)
		}()
	}
	dixxitTables := 1
	if v, err := strconv.Atoi(os.Getenv("DIX_KILL_DIXXIT")); err == nil && v >= 0 {
		dixxitTables = v
	}
	for i := range dixxitTables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.playDixxit(i, stop)
		}()
	}
	var freezes []time.Time
	if v, err := strconv.Atoi(os.Getenv("DIX_KILL_FREEZES")); err == nil && v > 0 {
		// Redis frozen 2.5 s, v times during the run, as by SIGSTOP.
		go func() {
			for range v {
				time.Sleep(time.Duration(kills) * 3 * time.Second / time.Duration(v+1))
				rs.Pause()
				time.Sleep(2500 * time.Millisecond)
				rs.Resume()
				k.mu.Lock()
				freezes = append(freezes, time.Now())
				k.mu.Unlock()
			}
		}()
	}

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for range kills {
		time.Sleep(2*time.Second + time.Duration(rng.IntN(2000))*time.Millisecond)
		i := rng.IntN(n)
		k.mu.Lock()
		k.kills = append(k.kills, time.Now())
		k.mu.Unlock()
		require.NoError(t, replicas[i].cmd.Process.Signal(syscall.SIGKILL))
		<-replicas[i].done
		old = append(old, replicas[i])
		replicas[i] = startProcess(t, env)
		fronts[i].SetTarget(loggedAddr(t, replicas[i].log(), "serving interactions"))
	}
	close(stop) // the games under way are played to their end
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(10 * time.Minute):
		t.Fatal("the games did not finish within 10 minutes of the last kill")
	}

	dups, stale := 0, 0
	for _, ch := range k.channels {
		dups += duplicateBoards(t, fake, ch)
		game := k.games[ch]
		if game == "" {
			continue // a DIX table: one game, one board
		}
		n, notes := liveStaleBoards(fake, ch, game, 3*time.Second)
		stale += n
		for _, s := range notes {
			t.Logf("channel %s: a stale board kept live buttons: %s", ch, s)
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	t.Logf("all tables: %d Redis freezes of 2.5 s; %d clicks deferred, %d of them silent; %d channels stuck without a board; "+
		"%d lobbies without a record; %d stale boards live ≥ 3 s", len(freezes), k.deferred, k.silent, k.stuckChannels, k.orphanLobbies, stale)
	assert.Zero(t, k.silent, "deferred clicks neither applied nor told")
	assert.Zero(t, k.stuckChannels, "channels stuck without a board")
	assert.Zero(t, k.orphanLobbies, "lobbies without a record")
	assert.Zero(t, stale, "stale boards live ≥ 3 s")
	t.Logf("games finished: %d DIX, %d Qwixx, %d Dixxit; game logs: %d counted (%d not: their end never logged), %d moves looked for; "+
		"%d moves logged twice; %d moves seen applied and not logged",
		k.finishedOf["dix"], k.finishedOf["qwixx"], k.finishedOf["dixxit"], k.logsCounted, k.logsUncounted, k.checked, k.doubled, k.logMissing)
	assert.Zero(t, k.doubled, "moves logged twice")
	assert.Zero(t, k.logMissing, "moves seen applied and not logged")
	assert.Zero(t, k.logsUncounted, "game logs without their end")
	t.Logf("%d kills of %d replicas (latency %v to Discord, %v each way to Redis): %d clicks, %d applied; "+
		"%d applied but unanswered (%d more in flight at a kill), %d unanswered and not applied; "+
		"%d boards posted twice; %d boards missing ≥ %v (longest wait %v); %d games finished of %d started; %d stuck",
		kills, n, killAPILatency, killRedisLatency, k.clicks, k.applied,
		k.unanswered, k.inFlight, k.lost, dups, k.missing, missingAfter, k.longest.Round(time.Millisecond),
		k.finished, k.started, k.stuck)
	for _, l := range k.notes {
		t.Log(l)
	}
	assert.Zero(t, k.unanswered, "clicks applied but never answered, outside a kill")
	assert.Zero(t, dups, "boards posted twice")
	assert.Zero(t, k.missing, "boards missing ≥ %v", missingAfter)
	assert.Zero(t, k.stuck, "games stuck")
	assert.Equal(t, k.started, k.finished, "every game started finished")
	assert.Positive(t, k.finished)
	if t.Failed() {
		var at []string
		for _, t := range k.kills {
			at = append(at, t.Format("15:04:05.000"))
		}
		t.Logf("kills at %s", strings.Join(at, ", "))
		// What the replicas did about the channels of the games stuck,
		// and their polling of due work.
		for i, p := range append(old, replicas...) {
			var lines []string
			for _, l := range strings.Split(p.log(), "\n") {
				if strings.Contains(l, "schedule") || slices.ContainsFunc(k.stuckIn, func(ch string) bool { return strings.Contains(l, ch) }) {
					lines = append(lines, l)
				}
			}
			if len(lines) > 0 {
				t.Logf("process %d (of %d):\n%s", i, len(old)+len(replicas), strings.Join(lines[max(0, len(lines)-40):], "\n"))
			}
		}
	}
}

// killRun is the measure of TestReplicaKills.
type killRun struct {
	t    *testing.T
	fake *fakediscord.Server
	st   dixbot.Store

	mu         sync.Mutex
	kills      []time.Time
	channels   []string
	clicks     int
	applied    int
	unanswered int // applied, never answered, no kill while in flight
	inFlight   int // applied, never answered, a kill while in flight
	lost       int // never answered, not applied (clicked again)
	missing    int
	longest    time.Duration
	started    int
	finished   int
	stuck      int
	stuckIn    []string // the channels of the games stuck or whose board went missing
	notes      []string
	// Clicks deferred, and those neither applied nor told
	// (interactContract); of the Qwixx and Dixxit tables, channels where
	// no start brought a lobby back, lobbies whose Join found no record.
	deferred, silent, stuckChannels, orphanLobbies int
	// games names the game of each Qwixx or Dixxit table's channel;
	// finishedOf counts the games finished by game.
	games      map[string]string
	finishedOf map[string]int
	// Of the game logs (kills_log_test.go): the logs counted and those
	// not, moves logged more often than made, moves seen applied and not
	// logged.
	logsCounted, logsUncounted, doubled, logMissing int
	checked                                         int // moves seen applied, looked for in a log
}

func (k *killRun) note(format string, args ...any) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.notes) < 40 {
		k.notes = append(k.notes, fmt.Sprintf(format, args...))
	}
}

// killedBetween reports whether a replica was killed between from and to.
func (k *killRun) killedBetween(from, to time.Time) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, at := range k.kills {
		if !at.Before(from) && !at.After(to) {
			return true
		}
	}
	return false
}

// play plays games at table i, one after the other, until stop is closed;
// the game under way then is played to its end.
func (k *killRun) play(i int, stop <-chan struct{}) {
	rng := rand.New(rand.NewPCG(uint64(i)+1, 42))
	for g := 0; ; g++ {
		select {
		case <-stop:
			return
		default:
		}
		tb := newTable(k.t, k.fake, "en-US", fmt.Sprintf("P%d-%da", i, g), fmt.Sprintf("P%d-%db", i, g), fmt.Sprintf("P%d-%dc", i, g))
		k.mu.Lock()
		k.channels = append(k.channels, tb.channel.ID)
		k.mu.Unlock()
		if err := k.lobby(tb); err != nil {
			k.note("table %d game %d: no game started (%v); a new table is taken", i, g, err)
			continue
		}
		k.mu.Lock()
		k.started++
		k.mu.Unlock()
		if err := k.game(tb, rng, fmt.Sprintf("dix table %d game %d", i, g)); err != nil {
			k.note("table %d game %d: %v", i, g, err)
			k.mu.Lock()
			k.stuck++
			k.stuckIn = append(k.stuckIn, tb.channel.ID)
			k.mu.Unlock()
			return
		}
		k.mu.Lock()
		k.finished++
		k.finishedOf["dix"]++
		k.mu.Unlock()
	}
}

// lobby opens a lobby, seats the players and starts the game, without
// failing the test: a kill can take the lobby's answer with it (that is
// another measure), and the table is then given up.
func (k *killRun) lobby(tb *table) error {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	ix, err := k.fake.RunCommand(ctx, tb.users[0].ID, tb.channel.ID, "/dix start")
	if err != nil {
		return err
	}
	r, err := ix.Wait(ctx)
	if err != nil {
		return err
	}
	if r.Message == nil || r.Ephemeral() {
		return errors.New("no lobby: " + describe(r))
	}
	lobby := *r.Message
	click := func(u fakediscord.User, verb string) error {
		for _, c := range components(lobby) {
			if id, ok := parseCustomID(c.CustomID); ok && id.verb == verb {
				ix, err := k.fake.Click(ctx, u.ID, lobby.ID, c.CustomID)
				if err != nil {
					return err
				}
				if _, err := ix.Wait(ctx); err != nil {
					return err
				}
				now, _ := k.fake.Message(lobby.ID)
				lobby = now
				return nil
			}
		}
		return fmt.Errorf("no %s button on the lobby", verb)
	}
	for _, u := range tb.users[1:] {
		if err := click(u, "join"); err != nil {
			return err
		}
	}
	if err := click(tb.users[0], "go"); err != nil {
		return err
	}
	rec, err := getRecord(ctx, k.st, tb.channel.ID)
	if err != nil || dixOf(rec) == nil {
		return fmt.Errorf("the game did not start: %v", err)
	}
	return nil
}

// killMeta is the part of the bot's table data the players read.
type killMeta struct {
	Seats []struct {
		ID   string `json:"u"`
		Name string `json:"n"`
	} `json:"s"`
}

// game plays the table's game to its end, then counts its log's draws
// against the draws applied. It returns an error when the game is stuck:
// no board for its decision for stuckAfter.
func (k *killRun) game(tb *table, rng *rand.Rand, what string) error {
	draws := map[string]int{} // the draws applied, by name
	for decisions := 0; ; decisions++ {
		if decisions > 3000 {
			return errors.New("no end after 3000 decisions")
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		rec, err := getRecord(ctx, k.st, tb.channel.ID)
		cancel()
		if err != nil {
			return fmt.Errorf("reading the game: %w", err)
		}
		if rec.Finished || dixOf(rec).Phase == dix.PhaseOver {
			lines, complete := k.gameLog(tb.channel.ID, lineDixOver)
			k.logTally(what, dixLogCount(lines, draws), lines, complete)
			return nil
		}
		var m killMeta
		if err := json.Unmarshal(rec.Meta, &m); err != nil {
			return err
		}
		seat := dixOf(rec).ToAct()
		if seat < 0 || seat >= len(m.Seats) {
			return fmt.Errorf("no seat to act (%d)", seat)
		}
		v := dixOf(rec).Seq
		board, buttons, err := k.boardFor(tb.channel.ID, v)
		if err != nil {
			ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
			now, _ := getRecord(ctx, k.st, tb.channel.ID)
			cancel()
			var why string
			if now != nil {
				why = fmt.Sprintf("; the record: seq %d, due in %v, data %s", dixOf(now).Seq, time.Until(now.Due).Round(time.Millisecond), now.Meta)
			}
			why += "; the channel's last public messages: " + lastBoards(k.fake, tb.channel.ID, 3, "")
			return fmt.Errorf("decision %d (state %d): %w%s", decisions, v, err, why)
		}
		user := m.Seats[seat].ID
		id := k.choose(buttons, rng)
		r, applied := k.click(tb.channel.ID, user, board.ID, id.raw, dixOf(rec).Seq)
		if applied && id.arg == "draw" {
			draws[m.Seats[seat].Name]++
		}
		if r != nil && r.Message != nil && r.Ephemeral() {
			// A prompt: the first payment proposed, or the first bid of
			// its menu (buying is left out).
			k.promptMove(tb.channel.ID, user, *r.Message, dixOf(rec).Seq)
		}
		time.Sleep(time.Duration(300+rng.IntN(300)) * time.Millisecond) // a quick player's pace
	}
}

// promptMove makes the first move a private prompt offers: a button's
// (a payment), else the first move of its menu (a bid), if any.
func (k *killRun) promptMove(channel, user string, prompt fakediscord.Message, seq uint32) {
	for _, c := range components(prompt) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "mv" {
			k.click(channel, user, prompt.ID, id.raw, seq)
			return
		}
	}
	for _, c := range components(prompt) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "sel" {
			for _, o := range c.Options {
				if strings.HasPrefix(o.Value, "mv:") {
					k.selectOn(channel, user, prompt.ID, c.CustomID, o.Value, seq)
					return
				}
			}
		}
	}
}

// promptVerbs are the decisions a simulated player takes when none is
// made in one click, in order of preference.
var promptVerbs = []string{"pass", "pr"}

// choose picks a one-click decision at random, else one opening a prompt
// (an auction's bid or a won auction's payment).
func (k *killRun) choose(buttons map[string]customID, rng *rand.Rand) customID {
	var one []string
	for v := range buttons {
		if slices.Contains(oneClickVerbs, v) {
			one = append(one, v)
		}
	}
	slices.Sort(one)
	if len(one) > 0 {
		// Draw often, so turns see busts and auctions.
		if slices.Contains(one, "draw") && rng.IntN(3) > 0 {
			return buttons["draw"]
		}
		return buttons[one[rng.IntN(len(one))]]
	}
	for _, v := range promptVerbs {
		if id, ok := buttons[v]; ok {
			return id
		}
	}
	for _, id := range buttons {
		return id
	}
	return customID{}
}

// boardFor waits for a public message in channel with the decision
// buttons of state version v. A wait of missingAfter counts a missing
// board; after stuckAfter it gives up.
func (k *killRun) boardFor(channel string, v uint32) (fakediscord.Message, map[string]customID, error) {
	start := time.Now()
	var buttons map[string]customID
	match := func(m fakediscord.Message) bool {
		if m.Ephemeral() {
			return false
		}
		buttons = decisionButtons(m, v)
		return len(buttons) > 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), missingAfter)
	m, err := k.fake.WaitMessage(ctx, channel, "", match)
	cancel()
	if err == nil {
		k.waited(time.Since(start))
		return m, buttons, nil
	}
	k.mu.Lock()
	k.missing++
	k.stuckIn = append(k.stuckIn, channel)
	k.mu.Unlock()
	k.note("channel %s: no board for state %d after %v", channel, v, missingAfter)
	ctx, cancel = context.WithTimeout(context.Background(), stuckAfter-missingAfter)
	defer cancel()
	m, err = k.fake.WaitMessage(ctx, channel, "", match)
	k.waited(time.Since(start))
	if err != nil {
		return m, nil, fmt.Errorf("no board for state %d after %v", v, stuckAfter)
	}
	return m, buttons, nil
}

func (k *killRun) waited(d time.Duration) {
	k.mu.Lock()
	k.longest = max(k.longest, d)
	k.mu.Unlock()
}

// click clicks customID on message as user and classifies the outcome: the
// answer (nil: none), and whether the game moved past seq.
func (k *killRun) click(channel, user, message, customID string, seq uint32) (*fakediscord.Response, bool) {
	return k.interact(channel, customID, seq, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return k.fake.Click(ctx, user, message, customID)
	})
}

// selectOn is click for choosing value in the select menu customID.
func (k *killRun) selectOn(channel, user, message, customID, value string, seq uint32) (*fakediscord.Response, bool) {
	return k.interact(channel, customID, seq, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return k.fake.Select(ctx, user, message, customID, value)
	})
}

// interact sends the interaction send makes on the component customID and
// classifies the outcome as click says (interactContract).
func (k *killRun) interact(channel, customID string, seq uint32, send func(context.Context) (*fakediscord.Interaction, error)) (*fakediscord.Response, bool) {
	_, r, applied := k.interactContract(channel, customID, send, func(rec *dixbot.Record) bool {
		g := dixOf(rec)
		return rec.Finished || g != nil && g.Seq > seq
	}, nil)
	return r, applied
}

// duplicateBoards counts the boards of channel posted for a state whose
// board had been posted already: each message first posted with decision
// buttons, by the state version of those buttons. A copy deleted within
// secondBoardFor of its posting (two processes posted at once, and the
// second withdrew its own) does not count.
// secondBoardFor is how long a second board of one state may stay.
const secondBoardFor = 3 * time.Second

func duplicateBoards(t *testing.T, fake *fakediscord.Server, channel string) int {
	seen := map[uint64]string{}
	dups := 0
	for _, m := range fake.Transcript(channel) {
		first := firstVersion(m)
		if m.Ephemeral() {
			continue
		}
		for _, c := range components(first) {
			id, ok := parseCustomID(c.CustomID)
			if !ok || !slices.Contains(gameVerbs, id.verb) {
				continue
			}
			if prev, ok := seen[id.version]; ok {
				if m.Deleted && m.DeletedAt.Sub(m.Timestamp) < secondBoardFor {
					// Two processes posted it at once; the second
					// withdrew its copy.
					t.Logf("channel %s: board %s posted for state %d, already on %s, deleted after %v", channel, m.ID, id.version, prev,
						m.DeletedAt.Sub(m.Timestamp).Round(time.Millisecond))
					break
				}
				dups++
				t.Logf("channel %s: board %s posted for state %d, already on %s", channel, m.ID, id.version, prev)
			} else {
				seen[id.version] = m.ID
			}
			break
		}
	}
	return dups
}

// lastBoards describes the last n public messages of channel: each version
// with its time and the state versions its buttons carry.
// recordNow describes the channel's record as stored: its version, due
// time and the table's outbox, board and missing mark.
func recordNow(st dixbot.Store, channel string) string {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	rec, err := getRecord(ctx, st, channel)
	if err != nil {
		return err.Error()
	}
	var td struct {
		Board   string          `json:"b"`
		Outbox  json.RawMessage `json:"ob"`
		Missing json.RawMessage `json:"bm"`
		Via     json.RawMessage `json:"bv"`
	}
	_ = json.Unmarshal(rec.Meta, &td)
	return fmt.Sprintf("version %d, due %s, finished %v, board %s, outbox %s, missing %s, board via %.80s",
		rec.Version, rec.Due.Format("15:04:05.000"), rec.Finished, td.Board, td.Outbox, td.Missing, td.Via)
}

func lastBoards(fake *fakediscord.Server, channel string, n int, board string) string {
	var pub []fakediscord.Message
	for _, m := range fake.Transcript(channel) {
		if !m.Ephemeral() {
			pub = append(pub, m)
		}
	}
	// A version of a message: when it was replaced, by what request, the
	// verbs and numbers of its buttons (any game's), its text's first line.
	version := func(until string, by string, rows []fakediscord.Component, content string, embeds []fakediscord.Embed) string {
		var vs []string
		for _, c := range components(fakediscord.Message{Components: rows}) {
			if parts := strings.SplitN(c.CustomID, ":", 4); len(parts) >= 3 {
				v := parts[1] + ":" + parts[2]
				if len(parts) == 4 {
					v += ":" + parts[3]
				}
				vs = append(vs, v)
			}
		}
		text := content
		if text == "" && len(embeds) > 0 {
			text = embeds[0].Title + " " + embeds[0].Description
		}
		text, _, _ = strings.Cut(text, "\n")
		if len(text) > 60 {
			text = text[:60]
		}
		return fmt.Sprintf("(%s by %q %v %q)", until, by, vs, text)
	}
	last := pub[max(0, len(pub)-n):]
	if board != "" && !slices.ContainsFunc(last, func(m fakediscord.Message) bool { return m.ID == board }) {
		if m, ok := fake.Message(board); ok {
			last = append([]fakediscord.Message{m}, last...)
		}
	}
	var out []string
	for _, m := range last {
		d := fmt.Sprintf("[%s webhook=%v, %d versions:", m.ID, m.WebhookID != "", len(m.History)+1)
		for _, h := range m.History[max(0, len(m.History)-6):] {
			d += " " + version("until "+h.ReplacedAt.Format("15:04:05.000"), h.By, h.Components, h.Content, h.Embeds)
		}
		d += " " + version("now", m.EditedBy, m.Components, m.Content, m.Embeds) + "]"
		out = append(out, d)
	}
	return strings.Join(out, " ")
}
