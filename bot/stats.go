package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/rating"
)

// Statistics: every finished game is recorded once in its server's
// statistics (dixbot.Stats, which the store implements), and /stats,
// /leaderboard and /forget-me read or delete them. Abandoned games are
// never recorded.
//
// A DIX game is recorded by the outbox effect effResult, owed with the
// final scoreboard by the update that ends the game: a process that dies
// before doing it leaves it owed, and any process does it later. The
// store counts a game id once, so the effect done twice (a process killed
// after recording, before removing the effect) counts once.
//
// A contract game (Qwixx, Dixxit) is recorded the same way, by the effect
// that ends it in its own outbox (outbox_contract.go, gameEnded), before
// the effect that archives it. A Rematch click or the next start in the
// channel that archives a game over records it first (recordOver).

// effResult records the finished game's result in its server's statistics.
const effResult = "result"

// Verbs of /forget-me's confirmation.
const (
	verbForgetYes = "fgyes"
	verbForgetNo  = "fgno"
)

// leaderboardSize is how many lines /leaderboard shows.
const leaderboardSize = 10

// dixGame is DIX's name in the statistics.
const dixGame = "dix"

// stats is the store's statistics, nil when it keeps none.
func (b *Bot) stats() dixbot.Stats {
	s, _ := b.store.(dixbot.Stats)
	return s
}

// record adds r to the statistics. A result they cannot key (a game
// outside a server) is logged and dropped; a store failure is returned,
// so that the caller tries again.
func (b *Bot) record(ctx context.Context, r *dixbot.Result) error {
	s := b.stats()
	if s == nil || r == nil {
		return nil
	}
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	ok, err := s.RecordResult(sctx, r)
	switch {
	case err == nil:
		if ok {
			b.log.Info("game result recorded", "game", r.Game, "id", r.ID, "seats", len(r.Seats))
		}
		return nil
	case isStoreFailure(err) || errors.Is(err, dixbot.ErrConflict):
		if b.obs != nil {
			b.obs.StoreError("update")
		}
		return fmt.Errorf("recording the game's result: %w", err)
	}
	b.log.Warn("game result not recorded", "game", r.Game, "id", r.ID, "err", err)
	return nil
}

// stateID names a game by its final state's bytes.
func stateID(b []byte) string {
	h := fnv.New64a()
	h.Write(b)
	return "s" + strconv.FormatUint(h.Sum64(), 36)
}

// contractResult is the result of a finished contract game (nil: not
// over, or not on a server). Its id is the channel and the game's board
// message (the lobby it started on), else its final state.
func contractResult(g *present.Game, rec *dixbot.Record, td *tableData, st engine.State) *dixbot.Result {
	if st == nil || !st.Over() || rec.Guild == "" {
		return nil
	}
	id := td.Board
	if id == "" {
		id = stateID(st.Encode())
	}
	r := &dixbot.Result{Guild: rec.Guild, Game: g.Rules.Name(), ID: rec.Channel + ":" + id, Pace: td.Pace}
	for _, res := range st.Results() {
		if res.Seat < 0 || res.Seat >= len(td.Seats) {
			continue
		}
		s := td.Seats[res.Seat]
		rs := dixbot.ResultSeat{User: s.User, Name: s.Name, Score: res.Score, Rank: res.Rank}
		if s.User == "" {
			rs.Level = s.Level
		}
		r.Seats = append(r.Seats, rs)
	}
	return r
}

// recordContract records a finished contract game before it is archived;
// an error means it is not recorded yet and the game must stay active.
func (b *Bot) recordContract(ctx context.Context, g *present.Game, rec *dixbot.Record, td *tableData, st engine.State) error {
	r := contractResult(g, rec, td, st)
	if r == nil {
		return nil
	}
	r.At = b.now().UTC()
	return b.record(ctx, r)
}

// recordOver decodes the record's contract game and records it when it is
// over (finishOver's retry path).
func (b *Bot) recordOver(ctx context.Context, rec *dixbot.Record) error {
	g, ok := b.games[rec.Game]
	if !ok || rec.Data == nil {
		return nil
	}
	td, err := decodeTableData(rec.Meta)
	if err != nil {
		return nil
	}
	st, err := g.Rules.Decode(rec.Data)
	if err != nil {
		return nil
	}
	return b.recordContract(ctx, g, rec, td, st)
}

// statsGames are the games with statistics: DIX, then the registered
// games by name.
func (b *Bot) statsGames() []string {
	names := []string{dixGame}
	for name := range b.games {
		names = append(names, name)
	}
	slices.Sort(names[1:])
	return names
}

// statsTitle is a game's name as shown.
func statsTitle(game string) string {
	if game == dixGame {
		return gameTitle("")
	}
	return gameTitle(game)
}

// statsCommands are /stats, /leaderboard and /forget-me, for every game;
// none when the store keeps no statistics.
func (b *Bot) statsCommands() []*discordgo.ApplicationCommand {
	if b.stats() == nil {
		return nil
	}
	gameOpt := func(required bool) *discordgo.ApplicationCommandOption {
		o := option("game", discordgo.ApplicationCommandOptionString)
		o.Required = required
		for _, g := range b.statsGames() {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: statsTitle(g), Value: g})
		}
		return o
	}
	cmd := func(id string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{
			Name: en(id + "_cmd_name"), NameLocalizations: localized(id + "_cmd_name"),
			Description: en(id + "_cmd_desc"), DescriptionLocalizations: localized(id + "_cmd_desc"),
			Contexts: &guildOnly, Options: opts,
		}
	}
	return []*discordgo.ApplicationCommand{
		cmd("stats", option("member", discordgo.ApplicationCommandOptionUser), gameOpt(false)),
		cmd("leaderboard", gameOpt(true)),
		cmd("forget"),
	}
}

// statsCommand routes /stats, /leaderboard and /forget-me; handled is
// false for another command.
func (b *Bot) statsCommand(c *call, d discordgo.ApplicationCommandInteractionData) (handled bool, err error) {
	var run func(*call, discordgo.ApplicationCommandInteractionData) error
	switch d.Name {
	case en("stats_cmd_name"):
		run = (*call).statsShow
	case en("leaderboard_cmd_name"):
		run = (*call).leaderboard
	case en("forget_cmd_name"):
		run = (*call).forgetAsk
	default:
		return false, nil
	}
	if c.i.GuildID == "" {
		c.ephemeral(locales.T(c.lang, "stats_server_only", nil), nil)
		return true, nil
	}
	if b.stats() == nil {
		c.ephemeral(locales.T(c.lang, "stats_unavailable", nil), nil)
		return true, nil
	}
	return true, run(c, d)
}

// gameArg is the game option of a stats command ("": none); an unknown
// game is bad input.
func (c *call) gameArg(d discordgo.ApplicationCommandInteractionData) (string, error) {
	for _, o := range d.Options {
		if o.Name != en("opt_game_name") {
			continue
		}
		v, ok := o.Value.(string)
		if !ok || !slices.Contains(c.b.statsGames(), v) {
			return "", fmt.Errorf("%w: game %v", ErrBadInput, o.Value)
		}
		return v, nil
	}
	return "", nil
}

// oneDecimal writes v with one decimal in lang's way.
func oneDecimal(lang string, v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if strings.HasPrefix(s, "-") {
		s = "−" + s[1:]
	}
	if s == "−0.0" {
		s = "0.0"
	}
	return strings.Replace(s, ".", locales.T(lang, "decimal_point", nil), 1)
}

// shownRating is the rating shown for mu and sigma: Mu − 3·Sigma.
func shownRating(lang string, mu, sigma float64) string {
	return oneDecimal(lang, rating.Ordinal(rating.Rating{Mu: mu, Sigma: sigma}))
}

// statsShow answers /stats [member] [game], privately.
func (c *call) statsShow(d discordgo.ApplicationCommandInteractionData) error {
	game, err := c.gameArg(d)
	if err != nil {
		return err
	}
	user, name := c.user, c.name
	for _, o := range d.Options {
		if o.Type != discordgo.ApplicationCommandOptionUser {
			continue
		}
		id, ok := o.Value.(string)
		if !ok || id == "" {
			return fmt.Errorf("%w: member %v", ErrBadInput, o.Value)
		}
		user, name = id, memberName(d.Resolved, id)
	}
	var ps []dixbot.PlayerStats
	var solo []dixbot.SoloStats
	err = c.retry("get", func(ctx context.Context) error {
		var err error
		ps, solo, err = c.b.stats().PlayerStats(ctx, c.i.GuildID, user)
		return err
	})
	if err != nil {
		return err
	}
	if game != "" {
		ps = slices.DeleteFunc(ps, func(p dixbot.PlayerStats) bool { return p.Game != game })
		if game != dixGame {
			solo = nil
		}
	}
	for _, p := range ps {
		if p.Name != "" && user != c.user {
			name = p.Name
		}
	}
	lang := c.lang
	if len(ps) == 0 && len(solo) == 0 {
		c.ephemeral(locales.T(lang, "stats_none", map[string]any{"Name": escape(name)}), nil)
		return nil
	}
	var lines []string
	fav := ""
	favPlayed := 0
	for _, p := range ps {
		rt := locales.T(lang, "stats_unrated", nil)
		if p.Rated {
			rt = shownRating(lang, p.Mu, p.Sigma)
		}
		lines = append(lines, locales.T(lang, "stats_game", map[string]any{
			"Game": statsTitle(p.Game), "Played": p.Played, "Won": p.Won,
			"Rate":   strconv.Itoa(int(100*float64(p.Won)/float64(max(p.Played, 1)) + 0.5)),
			"Avg":    oneDecimal(lang, float64(p.Total)/float64(max(p.Played, 1))),
			"Best":   p.Best,
			"Rating": rt,
		}))
		if p.Played > favPlayed {
			fav, favPlayed = p.Game, p.Played
		}
	}
	soloPlayed := 0
	for _, s := range solo {
		lines = append(lines, locales.T(lang, "stats_solo", map[string]any{
			"Difficulty": s.Difficulty, "Played": s.Played, "Won": s.Won, "Best": s.Best}))
		soloPlayed += s.Played
	}
	if soloPlayed > favPlayed {
		fav = dixGame
	}
	if fav != "" && game == "" {
		lines = append(lines, locales.T(lang, "stats_favourite", map[string]any{"Game": statsTitle(fav)}))
	}
	emb := &discordgo.MessageEmbed{
		Title:       locales.T(lang, "stats_title", map[string]any{"Name": name}),
		Description: strings.Join(lines, "\n"),
		Footer:      &discordgo.MessageEmbedFooter{Text: locales.T(lang, "stats_rating_note", nil)},
	}
	c.ephemeral("", nil, emb)
	return nil
}

// memberName is the name of a member resolved with a command: their nick
// on the server, else their display name, else their username.
func memberName(r *discordgo.ApplicationCommandInteractionDataResolved, id string) string {
	if r == nil {
		return id
	}
	if m := r.Members[id]; m != nil && m.Nick != "" {
		return m.Nick
	}
	if u := r.Users[id]; u != nil {
		if u.GlobalName != "" {
			return u.GlobalName
		}
		return u.Username
	}
	return id
}

// leaderboard answers /leaderboard game:, in public: the top ten and the
// asker's own line when they are rated below them.
func (c *call) leaderboard(d discordgo.ApplicationCommandInteractionData) error {
	game, err := c.gameArg(d)
	if err != nil {
		return err
	}
	if game == "" {
		return fmt.Errorf("%w: no game", ErrBadInput)
	}
	var top []dixbot.Standing
	var own *dixbot.Standing
	err = c.retry("get", func(ctx context.Context) error {
		var err error
		top, own, err = c.b.stats().Leaderboard(ctx, c.i.GuildID, game, c.user, leaderboardSize)
		return err
	})
	if err != nil {
		return err
	}
	lang := c.gameLang()
	title := locales.T(lang, "leaderboard_title", map[string]any{"Game": statsTitle(game)})
	var lines []string
	line := func(key string, s dixbot.Standing) string {
		name := s.Name
		if name == "" {
			name = s.User
		}
		return locales.T(lang, key, map[string]any{"Rank": s.Rank, "Name": escape(name), "Rating": shownRating(lang, s.Mu, s.Sigma),
			"Played": s.Played, "Won": s.Won})
	}
	for _, s := range top {
		lines = append(lines, line("leaderboard_line", s))
	}
	if len(top) == 0 {
		lines = append(lines, locales.T(lang, "leaderboard_empty", map[string]any{"Game": statsTitle(game)}))
	}
	if own != nil && own.Rank > len(top) {
		lines = append(lines, "", line("leaderboard_you", *own))
	}
	c.respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Embeds: []*discordgo.MessageEmbed{{
				Title: title, Description: strings.Join(lines, "\n"),
				Footer: &discordgo.MessageEmbedFooter{Text: locales.T(lang, "stats_rating_note", nil)},
			}},
			AllowedMentions: noMentions(),
		},
	})
	return nil
}

// forgetAsk answers /forget-me with its confirmation, privately.
func (c *call) forgetAsk(discordgo.ApplicationCommandInteractionData) error {
	c.ephemeral(locales.T(c.lang, "forget_confirm", nil), []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: locales.T(c.lang, "btn_forget_yes", nil), Style: discordgo.DangerButton, CustomID: customID(verbForgetYes, 0)},
			discordgo.Button{Label: locales.T(c.lang, "btn_forget_no", nil), Style: discordgo.SecondaryButton, CustomID: customID(verbForgetNo, 0)},
		}},
	})
	return nil
}

// forgetYes deletes the clicker's statistics and ratings on the server of
// the click: only the clicker's, whoever's message it is.
func (c *call) forgetYes(parsedID) error {
	if c.i.GuildID == "" {
		return refuse(ErrBadInput, "stats_server_only", nil)
	}
	s := c.b.stats()
	if s == nil {
		return refuse(ErrBadInput, "stats_unavailable", nil)
	}
	err := c.retry("delete", func(ctx context.Context) error { return s.ForgetPlayer(ctx, c.i.GuildID, c.user) })
	if err != nil {
		return err
	}
	c.b.log.Info("a person's statistics were deleted at their request", "guild", c.i.GuildID)
	c.updateOrReply(locales.T(c.lang, "forget_done", nil), nil)
	return nil
}

// forgetNo keeps them.
func (c *call) forgetNo(parsedID) error {
	c.updateOrReply(locales.T(c.lang, "forget_kept", nil), nil)
	return nil
}
