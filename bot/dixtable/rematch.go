package dixtable

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// verbRematch is the Rematch button of a final scoreboard. It carries no
// version: the scoreboard's game is told by the message's id against the
// table's origin (olderThanTable).
const verbRematch = "again"

// rematchRow is the row of a final scoreboard: the Rematch button, in the
// game's language.
func rematchRow(lang string) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		bot.Button(lang, "btn_rematch", nil, discordgo.SuccessButton, bot.CustomID(verbRematch, 0)),
	}}}
}

// rematch answers the Rematch button of a final scoreboard: any person
// seated in the finished game may click it. It opens the next game of the
// channel with the same seats (people, computer players with their level,
// ALIX with her difficulty) and options (pace, language, pictures, variant),
// the seat after the one that started the last game starting this one.
//
// When the clicker is the only person seated (a solo game, or a game
// against computer players), the new game starts at once: everyone at the
// table is there. Otherwise a lobby opens with every person already joined
// and the clicker as its creator: the others may still have gone for the
// evening, and the lobby lets them leave, or the clicker seat a computer
// player instead, before the game starts.
//
// The store's Create makes it exactly once: of several clicks at once (or
// repeated), one creates the game and the others are told where it is.
func rematch(c *bot.Call, _ bot.ParsedID) error {
	if c.I.Message == nil {
		return bot.ErrBadInput
	}
	r, m, err := table(c)
	finished := errors.Is(err, dixbot.ErrNotFound) && m != nil && r.Finished
	if err != nil && !finished {
		return err
	}
	if m.olderThanTable(c.I.Message.ID) {
		if finished {
			return bot.Refuse(bot.ErrStale, "err_rematch_gone", nil)
		}
		return rematchTaken(c, r, m)
	}
	if dix.GameOf(r.State) == nil || dix.GameOf(r.State).Phase != dix.PhaseOver {
		// The channel's game is newer than its last scoreboard but not
		// over: a scoreboard is never posted for it.
		if finished {
			return bot.Refuse(bot.ErrStale, "err_rematch_gone", nil)
		}
		return rematchTaken(c, r, m)
	}
	if m.seatOf(c.User) < 0 {
		return bot.Refuse(bot.ErrNotInGame, "err_rematch_not_seated", nil)
	}
	if !finished {
		// Over but not archived yet (its outbox is being done, or
		// archiving failed): one click claims the rematch, archives it
		// and creates the next game; the others are told.
		if err := claimRematch(c); err != nil {
			return err
		}
		// The outbox goes with the archived record: the result it may
		// still owe is recorded first (once, whoever records it).
		if err := c.B.Record(c.Ctx, dixResult(c.B, r, m)); err != nil {
			return err
		}
		if err := c.Retry("finish", func(ctx context.Context) error {
			err := c.B.Store.Finish(ctx, c.I.ChannelID)
			if errors.Is(err, dixbot.ErrNotFound) {
				return nil // archived in between by its outbox
			}
			return err
		}); err != nil {
			return err
		}
	}
	next, nm, err := rematchRecord(c, r, m)
	if err != nil {
		return err
	}
	if err := createOnce(c, next); err != nil {
		return err
	}
	if dix.GameOf(next.State) != nil {
		c.Respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content:         locales.T(nm.Lang, "rematch_started", map[string]any{"Name": nm.name(nm.Lang, dix.GameOf(next.State).Active)}),
				AllowedMentions: bot.NoMentions(),
			},
		})
		settle(c, next)
		return nil
	}
	var others []string
	for s := range nm.Seats {
		if u := nm.human(s); u != "" && u != c.User {
			others = append(others, u)
		}
	}
	answerLobby(c, next, nm, locales.T(nm.Lang, "rematch_lobby", map[string]any{
		"Mentions": bot.Mentions(others), "Creator": bot.Escape(c.Name)}), others)
	return nil
}

// claimRematch marks the finished, not yet archived game as rematched by
// this click, exactly once.
func claimRematch(c *bot.Call) error {
	_, err := changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		if dix.GameOf(r.State) == nil || dix.GameOf(r.State).Phase != dix.PhaseOver || m.Rematch != "" && m.Rematch != c.I.ID {
			return bot.ErrClaimed
		}
		m.Rematch = c.I.ID
		return nil
	})
	if errors.Is(err, bot.ErrClaimed) || errors.Is(err, dixbot.ErrNotFound) {
		return rematchTakenNow(c)
	}
	return err
}

// rematchTakenNow is the refusal of a click that came second: where the
// channel's new game is, as far as the store says.
func rematchTakenNow(c *bot.Call) error {
	r, err := c.Get()
	if err != nil {
		return bot.Refuse(dixbot.ErrExists, "err_rematch_opening", nil)
	}
	m, err := decodeDixTable(r.Meta)
	if err != nil {
		return err
	}
	return rematchTaken(c, r, m)
}

// rematchTaken is the refusal of a rematch when the channel already holds
// another game (r, m): who opened it and, once known, a link to it.
func rematchTaken(c *bot.Call, r *dixbot.Record, m *dixTable) error {
	name := locales.T(c.Lang, "nobody", nil)
	for _, s := range m.Seats {
		if s.ID == m.Creator && s.ID != "" {
			name = bot.Escape(s.Name)
		}
	}
	if m.Rematch != "" || m.Board == "" {
		// The finished game itself (its rematch being made), or a game
		// whose message is not posted yet.
		return bot.Refuse(dixbot.ErrExists, "err_rematch_opening", nil)
	}
	return bot.Refuse(dixbot.ErrExists, "err_rematch_exists", map[string]any{
		"Name": name, "URL": bot.MessageURL(r.Guild, r.Channel, m.Board)})
}

// createOnce stores the rematch's record: ErrExists means another click
// (or command) got the channel first, and the answer says where its game is.
func createOnce(c *bot.Call, r *dixbot.Record) error {
	unsure := false
	err := c.Retry("create", func(ctx context.Context) error {
		err := c.B.Store.Create(ctx, r)
		if unsure && errors.Is(err, dixbot.ErrExists) {
			if old, gerr := c.B.Store.Get(ctx, c.I.ChannelID); gerr == nil {
				if m, merr := decodeDixTable(old.Meta); merr == nil && m.Origin == c.I.ID {
					*r = *old // a try that looked failed landed
					return nil
				}
			}
		}
		unsure = unsure || bot.Transient(err)
		return err
	})
	if errors.Is(err, dixbot.ErrExists) {
		return rematchTakenNow(c)
	}
	return err
}

// rematchRecord is the record of the game after the finished one r, m:
// started at once when the clicker is the only person seated, else a lobby.
func rematchRecord(c *bot.Call, r *dixbot.Record, m *dixTable) (*dixbot.Record, *dixTable, error) {
	pace, err := c.B.PaceOf(m.Pace)
	if err != nil {
		pace, _ = c.B.PaceOf("") // a pace the bot no longer offers: its default
	}
	nm := &dixTable{Creator: c.User, Lang: m.Lang, Bust: m.Bust, Solo: m.Solo, Diff: m.Diff, Origin: c.I.ID,
		Pace: pace, NoPictures: m.NoPictures || c.B.NoPictures}
	seats, first := rematchSeats(m, lastFirst(r), c.User, c.Name)
	nm.Seats = seats
	rec := &dixbot.Record{Channel: c.I.ChannelID, Guild: c.I.GuildID}
	people := 0
	for s := range seats {
		if nm.human(s) != "" {
			people++
		}
	}
	if m.Solo || people == 1 {
		if err := begin(c, rec, nm, first); err != nil {
			return nil, nil, err
		}
		rec.Meta = nm.Encode()
		return rec, nm, nil
	}
	nm.Lobby = 1
	nm.Starts = first + 1
	oweLobby(c, rec, nm)
	rec.Meta = nm.Encode()
	return rec, nm, nil
}

// lastFirst is the seat that started the finished game, or -1 when its
// rules state does not say (a game dealt with its first player drawn at
// random before the table recorded the seat drawn).
func lastFirst(r *dixbot.Record) int {
	if dix.GameOf(r.State) != nil && dix.GameOf(r.State).Opts.FirstPlayer >= 0 {
		return dix.GameOf(r.State).Opts.FirstPlayer
	}
	return -1
}

// rematchSeats are the seats of the game after m: the same people and
// computer players in the same order, the clicker (user, shown as name)
// included; a person whose seat the computer took for good (they left, or
// were voted out) is not seated again, unless they are the clicker. first
// is the seat after the one that started (last; -1: unknown, then -1, a
// random first player), skipping the seats left out; a solo game always
// starts with its player (SPEC §5).
func rematchSeats(m *dixTable, last int, user, name string) ([]seat, int) {
	var seats []seat
	at := make([]int, len(m.Seats)) // old seat -> new seat, -1 when left out
	for i, s := range m.Seats {
		at[i] = -1
		switch {
		case s.ID == user:
			seats = append(seats, seat{ID: s.ID, Name: name})
		case s.ID != "" && s.Gone != "":
			continue
		default:
			seats = append(seats, seat{ID: s.ID, Name: s.Name, CPU: s.CPU})
		}
		at[i] = len(seats) - 1
	}
	if m.Solo {
		return seats, 0
	}
	if last < 0 || last >= len(m.Seats) {
		return seats, -1
	}
	for k := 1; k <= len(m.Seats); k++ {
		if s := at[(last+k)%len(m.Seats)]; s >= 0 {
			return seats, s
		}
	}
	return seats, -1
}

// oweLobby makes the lobby of a new table the answer to its interaction,
// owed too until its message is recorded, so that if the answer is lost
// (this process dies) any process posts it once lobbyGrace is over.
func oweLobby(c *bot.Call, rec *dixbot.Record, m *dixTable) {
	m.owe(rec, bot.Effect{Kind: bot.EffLobby})
	rec.Due = time.Now().Add(bot.LobbyGrace)
	if c.I.Token != "" && c.I.AppID != "" {
		// Its answer, if it was made, is found through the interaction.
		m.BoardVia = &bot.Via{App: c.I.AppID, Token: c.I.Token, At: c.At.UnixMilli()}
	}
}

// answerLobby answers with the lobby of the new table rec, m, after
// content (which may mention users), and records the lobby's message.
func answerLobby(c *bot.Call, rec *dixbot.Record, m *dixTable, content string, users []string) {
	allowed := bot.MentionUsers(users)
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content: content,
			Embeds:  []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, Components: lobbyButtons(m.Lang, m),
			AllowedMentions: allowed,
		},
	})
	channel, i := c.I.ChannelID, c.I
	c.Then(func(ctx context.Context) {
		if !c.Answered {
			// The lobby was not posted as the answer: it is posted now.
			if err := runDixOutbox(c.B, ctx, c.B.ApiFor(ctx), rec, nil); err != nil {
				c.B.Log.Warn("lobby left for later", "channel", channel, "err", err)
			}
			return
		}
		msg, err := c.B.ApiFor(ctx).Original(ctx, i)
		if err != nil || msg == nil {
			c.B.Log.Warn("could not read the lobby message; it is posted again later", "channel", channel, "err", err)
			return
		}
		rememberLobby(c.B, ctx, channel, msg.ID)
	})
}
