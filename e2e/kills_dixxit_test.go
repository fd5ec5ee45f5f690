package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// The Dixxit tables of TestReplicaKills: three people and a computer seat
// at the live pace, games one after the other in the same channel. The
// clue-giver opens their private prompt from the board and types the
// clue in its form; the people still to guess race at once, each to a
// square the board shows free; the computer gives its clues and guesses
// by itself.

// playDixxit plays Dixxit games at table i until stop is closed; the game
// under way then is played to its end.
func (k *killRun) playDixxit(i int, stop <-chan struct{}) {
	k.playContract("dixxit", fmt.Sprintf("X%d", i), uint64(i)+21, stop, [][2]string{{"cpu", "normal"}}, k.dixxitGame)
}

// dixxitMeta is the part of the table data the players read.
type dixxitMeta struct {
	Board string `json:"b"`
	Seats []struct {
		User  string `json:"u"`
		Name  string `json:"n"`
		Level string `json:"cpu"`
	} `json:"s"`
}

// dixxitGame plays the table's game to its end, then counts its log
// against the clues and fingers of its people. It returns an error when
// the game is stuck.
func (k *killRun) dixxitGame(tb *table, rng *rand.Rand, what string) error {
	play := newDixxitPlay()
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
		if rec.Finished || rec.Game != "dixxit" {
			lines, complete := k.gameLog(tb.channel.ID, lineDixxitOver)
			k.logTally(what, dixxitLogCount(lines, play), lines, complete)
			return nil
		}
		st, err := rules.Rules{}.Decode(rec.Data)
		if err != nil {
			return err
		}
		g := st.(*rules.Game)
		v := g.ViewOf(engine.Public)
		if v.Clue != "" {
			play.mu.Lock()
			play.said[v.Turn] = v.Clue
			play.mu.Unlock()
		}
		if g.Over() {
			if err := k.untilArchived(tb.channel.ID, rec.Version); err != nil {
				return err
			}
			lines, complete := k.gameLog(tb.channel.ID, lineDixxitOver)
			k.logTally(what, dixxitLogCount(lines, play), lines, complete)
			return nil
		}
		var m dixxitMeta
		if err := json.Unmarshal(rec.Meta, &m); err != nil {
			return err
		}
		person := func(seat int) bool {
			return seat < len(m.Seats) && m.Seats[seat].Level == "" && m.Seats[seat].User != ""
		}
		play.mu.Lock()
		for seat, s := range m.Seats {
			if person(seat) {
				play.people[s.Name] = true
			}
		}
		play.mu.Unlock()
		var people []int
		for _, seat := range g.ToDecide() {
			if person(seat) {
				people = append(people, seat)
			}
		}
		if len(people) == 0 {
			// The computer decides, by itself.
			if err := k.untilMoved(tb.channel.ID, rec.Version); err != nil {
				return fmt.Errorf("step %d (seq %d): %w; the record now: %s; the channel's last public messages: %s", step, g.Seq(), err, recordNow(k.st, tb.channel.ID), lastBoards(k.fake, tb.channel.ID, 3, m.Board))
			}
			continue
		}
		if g.Phase() == rules.PhaseClue {
			text := fmt.Sprintf("clue %s %d", strings.ReplaceAll(what, " ", "-"), v.Turn)
			if err := k.dixxitClue(tb.channel.ID, m, people[0], v.Turn, g.Seq(), text, play); err != nil {
				return fmt.Errorf("step %d (seq %d): %w; the record now: %s; the channel's last public messages: %s", step, g.Seq(), err, recordNow(k.st, tb.channel.ID), lastBoards(k.fake, tb.channel.ID, 3, m.Board))
			}
		} else {
			// The people still to guess race, each to a square the board
			// shows free.
			errs := make([]error, len(people))
			var wg sync.WaitGroup
			for i, seat := range people {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = k.dixxitFinger(tb.channel.ID, m, seat, v.Turn, g.Seq(), rand.New(rand.NewPCG(uint64(step), uint64(seat))), play)
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				return fmt.Errorf("step %d (seq %d): %w; the record now: %s; the channel's last public messages: %s", step, g.Seq(), err, recordNow(k.st, tb.channel.ID), lastBoards(k.fake, tb.channel.ID, 3, m.Board))
			}
		}
		time.Sleep(time.Duration(300+rng.IntN(300)) * time.Millisecond)
	}
}

// untilMoved waits up to stuckAfter for the channel's record to move past
// version.
func (k *killRun) untilMoved(channel string, version uint64) error {
	ctx, cancel := context.WithTimeout(context.Background(), stuckAfter)
	defer cancel()
	for ctx.Err() == nil {
		rec, err := getRecord(ctx, k.st, channel)
		if err == nil && (rec.Finished || rec.Version != version) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the game stayed at version %d for %v", version, stuckAfter)
}

// dixxitClue gives the clue of turn as seat: the board's My picture…
// button of state seq, the prompt's Give a clue button, and its form.
func (k *killRun) dixxitClue(channel string, m dixxitMeta, seat int, turn, seq uint64, text string, play *dixxitPlay) error {
	user := m.Seats[seat].User
	pr := "dixxit:pr:" + strconv.FormatUint(seq, 10)
	shows := func(m fakediscord.Message) bool {
		return slices.ContainsFunc(components(m), func(c fakediscord.Component) bool { return c.CustomID == pr })
	}
	board, err := k.contractBoard(channel, m.Board, "button "+pr, func(m fakediscord.Message) bool {
		return shows(m) || dixxitNewer(m, seq, turn)
	})
	if err != nil {
		return err
	}
	if !shows(board) {
		return nil // the game moved on (the clue's time ran out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	prompt, ok := k.answer(ctx, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return k.fake.Click(ctx, user, board.ID, pr)
	})
	if !ok || prompt.Message == nil || !prompt.Ephemeral() {
		return nil // refused or lost: the game as it stands decides what next
	}
	md, ok := gameButton("dixxit", *prompt.Message, "md", "clue")
	if !ok {
		return nil // the prompt of a turn already over
	}
	opener, err := k.fake.Click(ctx, user, prompt.Message.ID, md)
	if err != nil {
		return nil
	}
	if r, err := opener.Wait(ctx); err != nil || r.Type != fakediscord.CallbackModal {
		return nil
	}
	play.mu.Lock()
	play.typed[text] = turn
	play.cluesSent[text]++
	play.mu.Unlock()
	_, _, applied := k.interactContract(channel, "clue of "+m.Seats[seat].Name, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return k.fake.SubmitModal(ctx, user, opener, map[string]string{"text": text})
	}, func(rec *dixbot.Record) bool {
		if rec.Finished || rec.Game != "dixxit" {
			return true
		}
		st, err := rules.Rules{}.Decode(rec.Data)
		if err != nil {
			return false
		}
		v := st.(*rules.Game).ViewOf(engine.Public)
		return v.Turn > turn || v.Turn == turn && v.Clue == text
	}, nil)
	if applied {
		play.mu.Lock()
		play.cluesSeen[text]++
		play.mu.Unlock()
	}
	return nil
}

// answer sends an interaction that changes no game (a prompt opened) and
// returns its answer, the deferred one once it came.
func (k *killRun) answer(ctx context.Context, send func(context.Context) (*fakediscord.Interaction, error)) (*fakediscord.Response, bool) {
	ix, err := send(ctx)
	if err != nil {
		return nil, false
	}
	r, err := ix.Wait(ctx)
	if err != nil {
		return nil, false
	}
	if r.Type != fakediscord.CallbackDeferredChannelMessage && r.Type != fakediscord.CallbackDeferredUpdateMessage {
		return r, true
	}
	for ctx.Err() == nil {
		if cur, ok := ix.Response(); ok && cur.Message != nil && !cur.Message.Loading() && !cur.Message.EditedTimestamp.Before(r.At) {
			return &fakediscord.Response{Type: fakediscord.CallbackChannelMessage, At: r.At, Message: cur.Message}, true
		}
		if f := ix.Followups(); len(f) > 0 {
			return &fakediscord.Response{Type: fakediscord.CallbackChannelMessage, At: r.At, Message: &f[0]}, true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, false
}

// dixxitNewer reports whether the board m shows a state after seq (and
// turn): the prompt button of a later state, squares of a later turn, or
// the final scoreboard's Rematch.
func dixxitNewer(m fakediscord.Message, seq, turn uint64) bool {
	for _, c := range components(m) {
		parts := strings.SplitN(c.CustomID, ":", 4)
		if len(parts) < 3 || parts[0] != "dixxit" {
			continue
		}
		n, _ := strconv.ParseUint(parts[2], 10, 64)
		switch {
		case parts[1] == "again":
			return true
		case parts[1] == "pr" && n > seq:
			return true
		case parts[1] == "mv" && len(parts) == 4:
			if f := strings.Fields(parts[3]); len(f) == 3 && f[0] == "f" {
				if t, err := strconv.ParseUint(f[2], 10, 64); err == nil && t > turn {
					return true
				}
			}
		}
	}
	return false
}

// dixxitFinger puts seat's finger on a square the board of turn shows
// free.
func (k *killRun) dixxitFinger(channel string, m dixxitMeta, seat int, turn, seq uint64, rng *rand.Rand, play *dixxitPlay) error {
	suffix := " " + strconv.FormatUint(turn, 10)
	var free []fakediscord.Component
	board, err := k.contractBoard(channel, m.Board, fmt.Sprintf("squares of turn %d", turn), func(m fakediscord.Message) bool {
		free = free[:0]
		for _, c := range components(m) {
			parts := strings.SplitN(c.CustomID, ":", 4)
			if len(parts) == 4 && parts[0] == "dixxit" && parts[1] == "mv" && strings.HasPrefix(parts[3], "f ") &&
				strings.HasSuffix(parts[3], suffix) && c.Style == 1 {
				free = append(free, c)
			}
		}
		return len(free) > 0 || dixxitNewer(m, seq, turn)
	})
	if err != nil {
		return err
	}
	if len(free) == 0 {
		return nil // the turn is over
	}
	c := free[rng.IntN(len(free))]
	f := strings.Fields(c.CustomID[strings.LastIndex(c.CustomID, ":")+1:])
	square, _ := strconv.Atoi(f[1])
	key := fingerKey{name: m.Seats[seat].Name, square: square, turn: turn}
	play.mu.Lock()
	play.fingersSent[key]++
	play.mu.Unlock()
	user := m.Seats[seat].User
	lines := fingerLines(k.st, channel, m.Seats[seat].Name, square)
	// Told: the game's log, whose lines the board shows, gained a line
	// about this finger. That is how a click whose answer is left out as
	// older than the board (Call.overtaken) is told; and its finger may
	// no longer be on the grid: lifted by a finger with an earlier
	// snowflake applied after it (X7), left out of the score as later
	// than the find (§3.4), or on the grid of a game over and archived.
	// An answer that updates the board says nothing: an outdated click
	// (its turn over) is answered so too, with the board as it stands.
	told := func() bool { return fingerLines(k.st, channel, m.Seats[seat].Name, square) > lines }
	_, _, applied := k.interactContract(channel, c.CustomID, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return k.fake.Click(ctx, user, board.ID, c.CustomID)
	}, func(rec *dixbot.Record) bool {
		if rec.Finished || rec.Game != "dixxit" {
			return false
		}
		st, err := rules.Rules{}.Decode(rec.Data)
		if err != nil {
			return false
		}
		v := st.(*rules.Game).ViewOf(engine.Public)
		fv := rules.FingerView{Seat: seat, Square: square}
		switch {
		case v.Turn == turn:
			return slices.Contains(v.Fingers, fv)
		case v.Last != nil && v.Last.Turn == turn:
			return slices.Contains(v.Last.Fingers, fv)
		}
		return false
	}, told)
	if applied || told() {
		play.mu.Lock()
		play.fingersSeen[key]++
		play.mu.Unlock()
	}
	return nil
}

// fingerLines returns how many lines of the game log of channel are about
// name's finger on square, in either language: the finger ("no"), the
// find, the finger lifted (X7), the finger after the find (§3.4).
func fingerLines(st dixbot.Store, channel, name string, square int) int {
	const by = "\x00"
	var texts []string
	for _, lang := range []string{"en", "fr"} {
		d := map[string]any{"By": by, "Square": square, "Name": name}
		_, lifted, _ := strings.Cut(locales.T(lang, "dixxit_ev_lifted", d), by)
		texts = append(texts, lifted, locales.T(lang, "dixxit_ev_ignored", d),
			locales.T(lang, "dixxit_ev_finger", d), locales.T(lang, "dixxit_ev_found", d))
	}
	n := 0
	for _, line := range gameLogLines(st, channel) {
		for _, text := range texts {
			if text != "" && strings.Contains(line, text) {
				n++
				break
			}
		}
	}
	return n
}

// gameLogLines returns the lines of channel's game log: those written and
// those the table still holds; none when they cannot be read.
func gameLogLines(st dixbot.Store, channel string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var l struct {
		Origin string   `json:"o"` // the table the lines are of
		Lines  []string `json:"l"`
		N      int      `json:"n"` // the table's lines the log has had
	}
	if r, err := st.Get(ctx, channel+"/log"); err == nil {
		if json.Unmarshal(r.Meta, &l) != nil {
			l.Lines, l.N = nil, 0
		}
	}
	lines := l.Lines
	if r, err := getRecord(ctx, st, channel); err == nil && !r.Finished {
		var td struct {
			Origin   string   `json:"or"`
			Began    string   `json:"bg"`
			Board    string   `json:"b"`
			Lines    int      `json:"gn"` // the table's lines
			Unlogged []string `json:"gu"` // the last of them, numbered up to Lines
		}
		if json.Unmarshal(r.Meta, &td) == nil {
			// The lines not in the log yet, each once; a log of another
			// table has none of them.
			origin := td.Origin
			switch {
			case origin != "":
			case td.Began != "":
				origin = td.Began
			default:
				origin = td.Board
			}
			first, n := td.Lines-len(td.Unlogged), l.N
			if l.Origin != "t"+origin && l.Origin != origin {
				n = 0
			}
			if skip := max(0, n-first); skip < len(td.Unlogged) {
				lines = append(slices.Clip(lines), td.Unlogged[skip:]...)
			}
		}
	}
	return lines
}
