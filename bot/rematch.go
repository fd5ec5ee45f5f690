package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Rematch of games: the final scoreboard's button opens the
// channel's next game with the same seats (people, and computer seats with
// their level) and options (pace, language, pictures), the seat after the
// one that started the last game starting it. When the clicker is the only
// person seated the game starts at once; otherwise a lobby opens with
// every person already joined and the clicker as its creator, so that
// those gone for the evening may leave before it starts. The store's
// Create makes it exactly once: of several clicks, one opens the next game
// and the others are told where it is.

// firstStream is the random stream, under the game's seed, that draws the
// seat starting a game no rematch orders.
const firstStream = 1 << 62

// startTable starts the game of the lobby r, td at now: the seat that
// starts (td.Starts, else drawn from the seed), the forced and computer
// decisions that open it, the clocks of the people deciding.
func (b *Bot) startTable(g *present.Game, r *dixbot.Record, td *tableData, now time.Time) (engine.State, error) {
	return b.startTableWith(g, r, td, now, startPlan{})
}

// startTableWith is startTable with the seed and the computer's first
// decisions worked out before (foreseeStart; a zero plan: none).
func (b *Bot) startTableWith(g *present.Game, r *dixbot.Record, td *tableData, now time.Time, plan startPlan) (engine.State, error) {
	td.Seed = plan.seed
	if plan.f == nil {
		td.Seed = b.seed()
	}
	n := len(td.Seats)
	first := td.Starts - 1
	if first < 0 || first >= n {
		first = rand.New(rand.NewPCG(uint64(td.Seed), firstStream)).IntN(n)
	}
	td.First, td.Starts = first+1, 0
	st, err := g.Rules.New(engine.Setup{Players: n, Seed: td.Seed, First: first, Options: g.OptionValues(td.Opts)})
	if err != nil {
		return nil, err
	}
	td.Open = make([]uint64, n)
	for _, s := range st.ToDecide() {
		td.Open[s] = st.Seq()
		noteOpened(td, s, now)
	}
	evs, err := b.advanceWith(g, st, td, now, plan.f)
	if err != nil {
		return nil, err
	}
	td.tell(g, evs)
	setTableDue(r, td, g, st)
	r.Data = st.Encode()
	return st, nil
}

// rematchClick answers the Rematch button of a game's final
// scoreboard.
func (c *Call) rematchClick(g *present.Game) error {
	if c.I.Message == nil {
		return ErrBadInput
	}
	var r *dixbot.Record
	err := c.Retry("get", func(ctx context.Context) (err error) {
		r, err = c.B.get(ctx, c.I.ChannelID)
		return err
	})
	if errors.Is(err, dixbot.ErrNotFound) {
		return Refuse(ErrStale, "err_rematch_gone", nil)
	}
	if err != nil {
		return err
	}
	c.notice.seen = r
	gone := Refuse(ErrStale, "err_rematch_gone", nil)
	if r.Game != g.Rules.Name() {
		if r.Finished {
			return gone
		}
		return c.rematchTakenBy(r)
	}
	td, err := decodeTableData(r.Meta)
	if err != nil {
		return err
	}
	var st engine.State
	if r.Data != nil {
		if st, err = g.Rules.Decode(r.Data); err != nil {
			return err
		}
	}
	if td.Board != c.I.Message.ID || st == nil || !st.Over() {
		// The message is not this game's scoreboard: an older game's, or
		// a forged click on another message.
		if r.Finished {
			return gone
		}
		return c.rematchTakenBy(r)
	}
	if !td.seated(c.User) {
		return Refuse(ErrNotInGame, "err_rematch_not_seated", nil)
	}
	if !r.Finished {
		if err := c.claimRematch(g, r); err != nil {
			return err
		}
	}
	next, ntd, st2, err := c.rematchTable(g, r, td)
	if err != nil {
		return err
	}
	if v := c.startVia(); st2 == nil && v != nil {
		// The answer is the lobby, later the board: this token edits it.
		// The lobby is owed until the answer went out, as a start's
		// (lobby.go).
		ntd.BoardVia = v
		ntd.oweLobby(next, c.B.now(), v)
		next.Meta = ntd.Encode()
	}
	if err := c.createRematch(next); err != nil {
		return err
	}
	if st2 != nil {
		c.respondFirstBoard(g, next, ntd, st2)
		return nil
	}
	others := ntd.Called
	content, comps := lobbyView(g, ntd)
	content = locales.T(ntd.Lang, "table_rematch_lobby", map[string]any{"Mentions": Mentions(others), "Creator": present.Escape(c.Name)}) +
		"\n\n" + content
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content, Components: comps, AllowedMentions: mentionUsers(others)},
	})
	c.settleAnswer(next)
	return nil
}

// claimRematch claims the rematch of r, a game over but not archived yet:
// one click claims it, records the game's result and archives it; the
// others are told where the rematch is.
func (c *Call) claimRematch(g *present.Game, r *dixbot.Record) error {
	_, _, err := c.changeTable(g, func(r *dixbot.Record, td *tableData) error {
		// The channel's record may be another game by now (the
		// rematch another click opened): it is then not claimed.
		if td.Board != c.I.Message.ID || r.Data == nil || td.Rematch != "" && td.Rematch != c.I.ID {
			return ErrClaimed
		}
		td.Rematch = c.I.ID
		return nil
	})
	if errors.Is(err, ErrClaimed) || errors.Is(err, dixbot.ErrNotFound) {
		return c.rematchTakenNowBy()
	}
	if err != nil {
		return err
	}
	// The game's end may still be owed (outbox_run.go): its
	// result is recorded (once, whoever records it) before archiving.
	if err := c.B.recordOver(c.ctx, r); err != nil {
		return err
	}
	if err := c.Retry("finish", func(ctx context.Context) error {
		err := c.B.store.Finish(ctx, c.I.ChannelID)
		if errors.Is(err, dixbot.ErrNotFound) {
			return nil // archived in between by its board's edit
		}
		return err
	}); err != nil {
		return err
	}
	return nil
}

// rematchTable is the record of the game after the finished one r, td:
// started at once (its state returned) when the clicker is the only
// person seated, else a lobby (nil state).
func (c *Call) rematchTable(g *present.Game, r *dixbot.Record, td *tableData) (*dixbot.Record, *tableData, engine.State, error) {
	ntd := &tableData{V: tableDataVersion, Creator: c.User, Lang: td.Lang, NoPics: td.NoPics || c.B.noPictures,
		Pace: td.Pace, Opts: td.Opts, Origin: c.I.ID}
	people := 0
	at := make([]int, len(td.Seats)) // old seat -> new seat, -1 when left out
	for i, s := range td.Seats {
		at[i] = -1
		switch {
		case s.User == c.User:
			ntd.Seats = append(ntd.Seats, tableSeat{User: s.User, Name: c.Name})
		case s.User != "" && s.Level != "":
			continue // a person who left: not seated again
		default:
			// A new game: nobody is late, absent or voted out in it yet.
			s.Late, s.Away, s.Votes = 0, false, nil
			ntd.Seats = append(ntd.Seats, s)
		}
		at[i] = len(ntd.Seats) - 1
		if s.User != "" && (s.Level == "" || s.User == c.User) {
			people++
		}
	}
	// The seat after the one that started the last game starts, skipping
	// the seats left out.
	if last := td.First - 1; last >= 0 && last < len(td.Seats) {
		for k := 1; k <= len(td.Seats); k++ {
			if s := at[(last+k)%len(td.Seats)]; s >= 0 {
				ntd.Starts = s + 1
				break
			}
		}
	}
	rec := &dixbot.Record{Channel: c.I.ChannelID, Guild: c.I.GuildID, Game: g.Rules.Name()}
	if people == 1 && len(ntd.Seats) >= g.MinSeats {
		st, err := c.B.startTable(g, rec, ntd, c.B.now())
		if err != nil {
			return nil, nil, nil, err
		}
		line := locales.T(ntd.Lang, "table_rematch_started", map[string]any{"Name": ntd.Seats[ntd.First-1].text()})
		ntd.Log = appendLog(nil, append([]string{line}, ntd.Log...))
		fresh := ntd.fresh
		ntd.fresh, ntd.Lines, ntd.Unlogged = nil, 0, nil
		ntd.toLog(append([]string{line}, fresh...))
		rec.Meta = ntd.Encode()
		return rec, ntd, st, nil
	}
	// The lobby's message calls the others seated again.
	for _, s := range ntd.Seats {
		if s.User != "" && s.Level == "" && s.User != c.User {
			ntd.Called = append(ntd.Called, s.User)
		}
	}
	ntd.CalledAt = c.B.now().UnixMilli()
	rec.Meta = ntd.Encode()
	return rec, ntd, nil, nil
}

// createRematch stores the rematch's record: ErrExists means another
// click (or a command) got the channel first, and the answer says where
// its game is.
func (c *Call) createRematch(r *dixbot.Record) error {
	unsure := false
	err := c.Retry("create", func(ctx context.Context) error {
		err := c.B.store.Create(ctx, r)
		if unsure && errors.Is(err, dixbot.ErrExists) {
			if old, gerr := c.B.get(ctx, c.I.ChannelID); gerr == nil {
				if td, terr := decodeTableData(old.Meta); terr == nil && old.Game == r.Game && td.Origin == c.I.ID {
					*r = *old // a try that looked failed landed
					return nil
				}
			}
		}
		unsure = unsure || transient(err)
		return err
	})
	if errors.Is(err, dixbot.ErrExists) {
		return c.rematchTakenNowBy()
	}
	return err
}

// rematchTakenNowBy is the refusal of a rematch click that came second:
// where the channel's new game is, as far as the store says.
func (c *Call) rematchTakenNowBy() error {
	r, err := c.getQuietAny()
	if err != nil {
		return Refuse(dixbot.ErrExists, "err_rematch_opening", nil)
	}
	return c.rematchTakenBy(r)
}

// rematchTakenBy is the refusal of a rematch when the channel holds
// another game r: who opened it and, once its board is known, a link.
func (c *Call) rematchTakenBy(r *dixbot.Record) error {
	if _, ok := c.B.games[r.Game]; !ok {
		return otherGame(r.Game)
	}
	td, err := decodeTableData(r.Meta)
	if err != nil {
		return err
	}
	name := locales.T(c.Lang, "nobody", nil)
	for _, s := range td.Seats {
		if s.User == td.Creator && s.User != "" {
			name = present.Escape(s.Name)
		}
	}
	switch {
	case td.Rematch != "":
		return Refuse(dixbot.ErrExists, "err_rematch_opening", nil) // the game over itself, its rematch being made
	case r.Data == nil:
		return Refuse(dixbot.ErrExists, "table_err_rematch_lobby", map[string]any{"Name": name})
	case td.Board == "":
		return Refuse(dixbot.ErrExists, "err_rematch_opening", nil)
	}
	return Refuse(dixbot.ErrExists, "err_rematch_exists", map[string]any{
		"Name": name, "URL": messageURL(r.Guild, r.Channel, td.Board)})
}

// rememberBoard records, after the answer, the answer's message as the
// board of the game the rematch (or a solo start) started. An answer that
// never landed (Discord refused it, or its "thinking…" message went with
// its refused edit) leaves the game no board: the board is then posted
// with the bot token.
func (c *Call) rememberBoard(g *present.Game) {
	channel, i, origin := c.I.ChannelID, c.I, c.I.ID
	c.Then(func(ctx context.Context) {
		msg, err := c.original(ctx, i)
		if NotFound(err) {
			msg, err = c.postFirstBoard(ctx, g, origin)
		}
		if errors.Is(err, ErrNothingToDo) {
			return // another answer or click named the board
		}
		if err != nil || msg == nil {
			c.B.log.Warn("could not read the board message of a rematch", "channel", channel, "err", err)
			return
		}
		sctx, cancel := context.WithTimeout(ctx, c.B.timeout)
		defer cancel()
		_, err = c.B.update(sctx, channel, "", c.B.onTable(g.Rules.Name(), func(_ *dixbot.Record, _ *present.Game, td *tableData) error {
			if td.Origin != origin || td.Board != "" {
				return ErrNothingToDo
			}
			td.Board = msg.ID
			return nil
		}))
		if err != nil && !errors.Is(err, ErrNothingToDo) && !errors.Is(err, dixbot.ErrNotFound) {
			c.B.log.Warn("could not record the board message of a rematch", "channel", channel, "err", err)
		}
	})
}

// postFirstBoard posts with the bot token the board of the channel's table
// opened by the interaction origin, when it has no board yet: the game as
// it stands. The interaction's token cannot post it: the interaction was
// never acknowledged, or the first follow-up of its deferral would edit
// its "thinking…" message, deleted. Its nonce is the table's, so that a
// post tried again is not made twice.
func (c *Call) postFirstBoard(ctx context.Context, g *present.Game, origin string) (*discordgo.Message, error) {
	channel := c.I.ChannelID
	sctx, cancel := context.WithTimeout(ctx, c.B.timeout)
	r, err := c.B.get(sctx, channel)
	cancel()
	if err != nil {
		return nil, err
	}
	td, err := decodeTableData(r.Meta)
	if err != nil {
		return nil, err
	}
	if r.Finished || r.Game != g.Rules.Name() || r.Data == nil || td.Origin != origin || td.Board != "" {
		return nil, ErrNothingToDo
	}
	pb, st, err := c.B.drawBoard(g, r, td, "")
	if err != nil {
		return nil, err
	}
	msg, err := c.D.Send(ctx, channel, &discordgo.MessageSend{Content: pb.Content, Embeds: pb.Embeds, Files: pb.Files,
		Components: tableComponents(g, st, td, pb), AllowedMentions: noMentions()}, nonceOf("%s/board/%s", channel, origin))
	if err == nil {
		c.B.log.Info("board posted: the answer that started the game was lost", "channel", channel, "message", msg.ID)
	}
	return msg, err
}

// originalTries bounds the reads of an answer's message (original).
const originalTries = 3

// original is the message of the answer to i, read through its token,
// tried again (originalTries in all) while Discord fails for a moment:
// the answer landed or not, only Discord can say which message it is. A
// board whose id stays unknown is made the board by the first click on
// it (applyMove).
func (c *Call) original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error) {
	for try := 1; ; try++ {
		msg, err := c.D.Original(ctx, i)
		if err == nil || permanent(err) || try == originalTries {
			return msg, err
		}
		c.B.log.Info("answer's message to be read again", "interaction", i.ID, "err", err)
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(editRetryPause):
		}
	}
}
