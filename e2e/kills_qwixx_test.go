package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	dixbot "github.com/dixgame/dixbot"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// The Qwixx tables of TestReplicaKills: three people, every decision a
// click on the table's board as the store names it, games one after the
// other in the same channel.

// playQwixx plays Qwixx games at table i until stop is closed; the game
// under way then is played to its end.
func (k *killRun) playQwixx(i int, stop <-chan struct{}) {
	k.playContract("qwixx", fmt.Sprintf("Q%d", i), uint64(i)+11, stop, nil, k.qwixxGame)
}

// playContract plays games of a contract game at a table of three people
// named after table, one after the other in its channel, until stop is
// closed; the game under way then is played to its end. The table's
// creator clicks extra's buttons (verb and argument) on the lobby before
// starting.
func (k *killRun) playContract(game, table string, seed uint64, stop <-chan struct{}, extra [][2]string,
	play func(tb *table, rng *rand.Rand, what string) error) {
	rng := rand.New(rand.NewPCG(seed, 43))
	tb := newTable(k.t, k.fake, "en-US", table+"-a", table+"-b", table+"-c")
	k.mu.Lock()
	k.channels = append(k.channels, tb.channel.ID)
	k.games[tb.channel.ID] = game
	k.mu.Unlock()
	for g := 0; ; g++ {
		select {
		case <-stop:
			return
		default:
		}
		what := fmt.Sprintf("%s table %s game %d", game, table, g)
		if err := k.contractLobby(tb, game, extra); err != nil {
			k.note("%s: no game started (%v)", what, err)
			if errors.Is(err, errStuckChannel) {
				k.mu.Lock()
				k.stuckChannels++
				k.stuckIn = append(k.stuckIn, tb.channel.ID)
				k.mu.Unlock()
				return
			}
			continue
		}
		k.mu.Lock()
		k.started++
		k.mu.Unlock()
		if err := play(tb, rng, what); err != nil {
			k.note("%s: %v", what, err)
			k.mu.Lock()
			k.stuck++
			k.stuckIn = append(k.stuckIn, tb.channel.ID)
			k.mu.Unlock()
			return
		}
		k.mu.Lock()
		k.finished++
		k.finishedOf[game]++
		k.mu.Unlock()
	}
}

// errStuckChannel: the channel holds a table, and no start or command
// brings its lobby or board back.
var errStuckChannel = errors.New("the channel is stuck with a table and no lobby or board")

// contractLobby opens a lobby of game, seats the players, clicks extra's
// buttons as the creator and starts the game, each answer awaited as a
// person sees it (a deferred one once it came). A start refused because
// the channel holds a table takes the table's lobby when the channel shows
// one, as a person would; else it is tried again for stuckAfter, then
// counted stuck. A lobby whose Join is told the game is gone is a lobby
// without a record.
func (k *killRun) contractLobby(tb *table, game string, extra [][2]string) error {
	ctx, cancel := context.WithTimeout(context.Background(), stuckAfter)
	defer cancel()
	var lobby fakediscord.Message
	isLobby := func(m fakediscord.Message) bool {
		_, ok := gameButton(game, m, "join", "")
		return !m.Ephemeral() && ok
	}
	for {
		r, ok := k.answer(ctx, func(ctx context.Context) (*fakediscord.Interaction, error) {
			return k.fake.RunCommand(ctx, tb.users[0].ID, tb.channel.ID, "/"+game+" start")
		})
		switch {
		case ok && r.Message != nil && isLobby(*r.Message):
			lobby = *r.Message
		case ok && r.Message != nil && strings.Contains(r.Message.Content, "already has a game"):
			// A lobby of an earlier try, shown: taken. Else the last
			// game's archiving is under way: tried again, up to
			// stuckAfter.
			if rec, err := getRecord(ctx, k.st, tb.channel.ID); err == nil && rec.Game == game && rec.Data == nil && !rec.Finished {
				if m, err := k.fake.WaitMessage(ctx, tb.channel.ID, "", isLobby); err == nil {
					lobby = m
					break
				}
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%w: %q", errStuckChannel, r.Message.Content)
			case <-time.After(time.Second):
			}
			continue
		case !ok:
			if ctx.Err() != nil {
				return fmt.Errorf("%w: no answer to the start", errStuckChannel)
			}
			continue // lost at a kill: started again
		default:
			return errors.New("no lobby: " + describe(r))
		}
		break
	}
	click := func(u fakediscord.User, verb, arg string) error {
		id, ok := gameButton(game, lobby, verb, arg)
		if !ok {
			return fmt.Errorf("no %s button on the lobby", verb)
		}
		r, ok := k.answer(ctx, func(ctx context.Context) (*fakediscord.Interaction, error) {
			return k.fake.Click(ctx, u.ID, lobby.ID, id)
		})
		if !ok {
			return fmt.Errorf("no answer to %s", verb)
		}
		if r.Message != nil && strings.Contains(r.Message.Content, locales.T("en", "err_game_gone", nil)) {
			k.mu.Lock()
			k.orphanLobbies++
			k.mu.Unlock()
			k.note("channel %s: lobby %s without a record", tb.channel.ID, lobby.ID)
			return errors.New("a lobby without a record")
		}
		now, _ := k.fake.Message(lobby.ID)
		lobby = now
		return nil
	}
	for _, u := range tb.users[1:] {
		if err := click(u, "join", ""); err != nil {
			return err
		}
	}
	for _, e := range extra {
		if err := click(tb.users[0], e[0], e[1]); err != nil {
			return err
		}
	}
	if err := click(tb.users[0], "go", ""); err != nil {
		return err
	}
	rec, err := getRecord(ctx, k.st, tb.channel.ID)
	if err != nil || rec.Game != game || rec.Data == nil {
		return fmt.Errorf("the game did not start: %v", err)
	}
	return nil
}

// qwixxMeta is the part of the table data the players read.
type qwixxMeta struct {
	Board string `json:"b"`
	Seats []struct {
		User string `json:"u"`
		Name string `json:"n"`
	} `json:"s"`
}

// qwixxGame plays the table's game to its end: each turn one person
// deciding clicks the strong computer's move on the board the record
// names. It returns an error when the game is stuck. Once the game is
// over, its log is counted against its final state.
func (k *killRun) qwixxGame(tb *table, rng *rand.Rand, what string) error {
	for step := 0; ; step++ {
		if step > 3000 {
			return errors.New("no end after 3000 decisions")
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		rec, err := getRecord(ctx, k.st, tb.channel.ID)
		cancel()
		if err != nil {
			return fmt.Errorf("reading the game: %w", err)
		}
		if rec.Game != "qwixx" || rec.Data == nil {
			return nil
		}
		st, err := rules.Rules{}.Decode(rec.Data)
		if err != nil {
			return err
		}
		var m qwixxMeta
		if err := json.Unmarshal(rec.Meta, &m); err != nil {
			return err
		}
		if rec.Finished || st.Over() {
			if err := k.untilArchived(tb.channel.ID, rec.Version); err != nil {
				return err
			}
			var names []string
			for _, s := range m.Seats {
				names = append(names, s.Name)
			}
			lines, complete := k.gameLog(tb.channel.ID, qwixxOverLines...)
			k.logTally(what, qwixxLogCount(lines, st.(rules.State).Game().View(-1), names), lines, complete)
			return nil
		}
		deciding := st.ToDecide()
		seat := deciding[rng.IntN(len(deciding))]
		move, err := computer.Player{Level: computer.Normal}.Decide(st, seat, rand.New(rand.NewPCG(uint64(step), 2)))
		if err != nil {
			return err
		}
		var id string
		board, err := k.contractBoard(tb.channel.ID, m.Board, fmt.Sprintf("button %q", move), func(m fakediscord.Message) bool {
			var ok bool
			id, ok = gameButton("qwixx", m, "mv", string(move))
			return ok
		})
		if err != nil {
			return fmt.Errorf("decision %d (seq %d, version %d): %w; the record now: %s; the channel's last public messages: %s",
				step, st.Seq(), rec.Version, err, recordNow(k.st, tb.channel.ID), lastBoards(k.fake, tb.channel.ID, 3, m.Board))
		}
		k.clickContract(tb.channel.ID, m.Seats[seat].User, board.ID, id, rec.Version)
		time.Sleep(time.Duration(300+rng.IntN(300)) * time.Millisecond)
	}
}

// contractBoard waits for the board message of channel to match (what
// the match looks for names it in notes). A wait of missingAfter counts a
// missing board; after stuckAfter it gives up.
func (k *killRun) contractBoard(channel, board, what string, match func(fakediscord.Message) bool) (fakediscord.Message, error) {
	start := time.Now()
	on := func(m fakediscord.Message) bool { return m.ID == board && match(m) }
	ctx, cancel := context.WithTimeout(context.Background(), missingAfter)
	m, err := k.fake.WaitMessage(ctx, channel, "", on)
	cancel()
	if err == nil {
		k.waited(time.Since(start))
		return m, nil
	}
	k.mu.Lock()
	k.missing++
	k.stuckIn = append(k.stuckIn, channel) // its processes' lines are shown should the test fail
	k.mu.Unlock()
	k.note("channel %s: no %s on the board %s after %v", channel, what, board, missingAfter)
	ctx, cancel = context.WithTimeout(context.Background(), stuckAfter-missingAfter)
	defer cancel()
	m, err = k.fake.WaitMessage(ctx, channel, "", on)
	k.waited(time.Since(start))
	if err != nil {
		return m, fmt.Errorf("no %s on the board after %v", what, stuckAfter)
	}
	return m, nil
}

// untilArchived waits for a game over to be archived.
func (k *killRun) untilArchived(channel string, version uint64) error {
	ctx, cancel := context.WithTimeout(context.Background(), stuckAfter)
	defer cancel()
	for ctx.Err() == nil {
		rec, err := getRecord(ctx, k.st, channel)
		if err == nil && (rec.Finished || rec.Version < version) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("the game over was not archived")
}

// clickContract clicks a contract game's button and classifies the
// outcome as interactContract does: applied when the record moved past
// version.
func (k *killRun) clickContract(channel, user, message, customID string, version uint64) {
	k.interactContract(channel, customID, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return k.fake.Click(ctx, user, message, customID)
	}, func(rec *dixbot.Record) bool {
		return rec.Finished || rec.Version > version || rec.Version < version
	}, nil)
}

// interactContract sends the interaction send makes on a contract game's
// component (what names it in notes) and classifies the outcome as click
// does, applied telling from the channel's record whether it was applied.
// A deferred answer (type 5 or 6) must end in the move applied, a
// follow-up in words, or what told reports the board said about it (nil:
// nothing): one that ends in none within waitTimeout is counted silent.
// It returns the answer (nil: none) and whether the move was seen applied.
func (k *killRun) interactContract(channel, what string, send func(context.Context) (*fakediscord.Interaction, error),
	applied func(*dixbot.Record) bool, told func() bool) (*fakediscord.Interaction, *fakediscord.Response, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	start := time.Now()
	ix, err := send(ctx)
	if err != nil {
		return nil, nil, false
	}
	r, werr := ix.Wait(ctx)
	end := time.Now()
	seen := false
	isApplied := func() bool {
		if !seen {
			rec, err := getRecord(ctx, k.st, channel)
			seen = err == nil && applied(rec)
		}
		return seen
	}
	k.mu.Lock()
	k.clicks++
	k.mu.Unlock()
	if werr == nil && (r.Type == fakediscord.CallbackDeferredUpdateMessage || r.Type == fakediscord.CallbackDeferredChannelMessage) {
		k.mu.Lock()
		k.deferred++
		k.mu.Unlock()
		// Applied, or told: whichever comes first.
		isTold := func() bool { return len(ix.Followups()) > 0 || told != nil && told() }
		for ctx.Err() == nil && !isApplied() && !isTold() {
			time.Sleep(50 * time.Millisecond)
		}
		if !isApplied() && !isTold() {
			k.mu.Lock()
			k.silent++
			k.mu.Unlock()
			lines := gameLogLines(k.st, channel)
			k.note("%s in channel %s: deferred, neither applied nor told; the log ends:\n%s", what, channel,
				strings.Join(lines[max(0, len(lines)-8):], "\n"))
		}
	}
	ok := isApplied()
	k.mu.Lock()
	if ok {
		k.applied++
	}
	k.mu.Unlock()
	if werr == nil {
		return ix, r, ok
	}
	switch {
	case !ok:
		k.mu.Lock()
		k.lost++
		k.mu.Unlock()
	case k.killedBetween(start.Add(-time.Second), end):
		k.mu.Lock()
		k.inFlight++
		k.mu.Unlock()
	default:
		k.mu.Lock()
		k.unanswered++
		k.mu.Unlock()
		k.note("%s in channel %s: applied, never answered (%v)", what, channel, werr)
	}
	return ix, nil, ok
}

// liveStaleBoards counts the public messages of channel that kept live
// game buttons for at least d after a later message with buttons of the
// same game was posted: boards (or lobbies) whose retirement was lost.
func liveStaleBoards(fake *fakediscord.Server, channel, game string, d time.Duration) (int, []string) {
	type shown struct {
		id            string
		posted, ended time.Time // while it had live buttons of the game
	}
	var boards []shown
	live := func(rows []fakediscord.Component) bool {
		for _, c := range components(fakediscord.Message{Components: rows}) {
			if strings.HasPrefix(c.CustomID, game+":") && !strings.HasPrefix(c.CustomID, game+":again:") {
				return true
			}
		}
		return false
	}
	for _, m := range fake.Transcript(channel) {
		if m.Ephemeral() {
			continue
		}
		first := firstVersion(m)
		if !live(first.Components) {
			continue
		}
		// Version j is History[j] (the current one last), shown from the
		// end of version j-1: the first without live buttons ends it.
		s := shown{id: m.ID, posted: m.Timestamp}
		for j := 1; j <= len(m.History); j++ {
			rows := m.Components
			if j < len(m.History) {
				rows = m.History[j].Components
			}
			if !live(rows) {
				s.ended = m.History[j-1].ReplacedAt
				break
			}
		}
		boards = append(boards, s)
	}
	n, notes := 0, []string{}
	for i, b := range boards {
		if i+1 >= len(boards) {
			break // the newest
		}
		next := boards[i+1].posted
		end := b.ended
		if end.IsZero() {
			end = time.Now()
		}
		if end.Sub(next) >= d {
			n++
			notes = append(notes, b.id+" live "+end.Sub(next).Round(time.Millisecond).String()+" after "+boards[i+1].id)
		}
	}
	return n, notes
}
