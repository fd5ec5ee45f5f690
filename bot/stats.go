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
// A game is recorded by the effect that ends it in its outbox
// (outbox_run.go, gameEnded), owed by the update that ends the game,
// before the effect that archives it: a process that dies before doing it
// leaves it owed, and any process does it later. The store counts a game
// id once, so the effect done twice (a process killed after recording,
// before removing the effect) counts once. A Rematch click or the next start in the
// channel that archives a game over records it first (recordOver).

// Verbs of /forget-me's confirmation.
const (
	verbForgetYes = "fgyes"
	verbForgetNo  = "fgno"
)

// leaderboardSize is how many lines /leaderboard shows.
const leaderboardSize = 10

// Stats is the store's statistics, nil when it keeps none.
func (b *Bot) Stats() dixbot.Stats {
	s, _ := b.store.(dixbot.Stats)
	return s
}

// Record adds r to the statistics. A result they cannot key (a game
// outside a server) is logged and dropped; a store failure is returned,
// so that the caller tries again.
func (b *Bot) Record(ctx context.Context, r *dixbot.Result) error {
	s := b.Stats()
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

// resultOf is the result of a finished game (nil: not
// over, or not on a server). Its id is the channel and the game's board
// message (the lobby it started on), else its final state.
func resultOf(g *present.Game, rec *dixbot.Record, td *tableData, st engine.State) *dixbot.Result {
	if st == nil || !st.Over() || rec.Guild == "" {
		return nil
	}
	id := td.Board
	if id == "" {
		id = stateID(st.Encode())
	}
	r := &dixbot.Result{Guild: rec.Guild, Game: g.Rules.Name(), ID: rec.Channel + ":" + id, Pace: td.Pace, Solo: soloLevel(g, td)}
	for _, res := range st.Results() {
		switch {
		case res.Seat < 0:
			continue
		case res.Seat >= len(td.Seats):
			// A seat the rules play themselves: a solo game's opponent.
			if r.Solo > 0 {
				r.Seats = append(r.Seats, dixbot.ResultSeat{Level: dixbot.LevelSolo, Score: res.Score, Rank: res.Rank})
			}
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

// soloLevel is the difficulty of a solo game (a table of one seat against
// the rules' own opponent): the value of the game's solo option
// (present.Option.Solo), which the statistics keep apart; 0 for any other
// game.
func soloLevel(g *present.Game, td *tableData) int {
	if len(td.Seats) != 1 {
		return 0
	}
	vals := g.OptionValues(td.Opts)
	for _, o := range g.Options {
		if n, err := strconv.Atoi(vals[o.Name]); o.Solo && err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// recordResult records a finished game before it is archived;
// an error means it is not recorded yet and the game must stay active.
func (b *Bot) recordResult(ctx context.Context, g *present.Game, rec *dixbot.Record, td *tableData, st engine.State) error {
	r := resultOf(g, rec, td, st)
	if r == nil {
		return nil
	}
	r.At = b.now().UTC()
	return b.Record(ctx, r)
}

// recordOver decodes the record's game and records it when it is
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
	return b.recordResult(ctx, g, rec, td, st)
}

// soloGame is the game whose solo games the statistics keep apart
// (dixbot.SoloStats, which names no game): the first game with a solo
// opponent's option, "" when none has one.
func (b *Bot) soloGame() string {
	for _, name := range b.order {
		if slices.ContainsFunc(b.games[name].Options, func(o present.Option) bool { return o.Solo }) {
			return name
		}
	}
	return ""
}

// statsCommands are /stats, /leaderboard and /forget-me, for every game;
// none when the store keeps no statistics.
func (b *Bot) statsCommands() []*discordgo.ApplicationCommand {
	if b.Stats() == nil {
		return nil
	}
	gameOpt := func(required bool) *discordgo.ApplicationCommandOption {
		o := Option("game", discordgo.ApplicationCommandOptionString)
		o.Required = required
		for _, g := range b.gameNames() {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: gameTitle(g), Value: g})
		}
		return o
	}
	cmd := func(id string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{
			Name: En(id + "_cmd_name"), NameLocalizations: Localized(id + "_cmd_name"),
			Description: En(id + "_cmd_desc"), DescriptionLocalizations: Localized(id + "_cmd_desc"),
			Options: opts,
		}
	}
	return []*discordgo.ApplicationCommand{
		cmd("stats", Option("member", discordgo.ApplicationCommandOptionUser), gameOpt(false)),
		cmd("leaderboard", gameOpt(true)),
		cmd("forget"),
	}
}

// statsCommand routes /stats, /leaderboard and /forget-me; handled is
// false for another command.
func (b *Bot) statsCommand(c *Call, d discordgo.ApplicationCommandInteractionData) (handled bool, err error) {
	var run func(*Call, discordgo.ApplicationCommandInteractionData) error
	switch d.Name {
	case En("stats_cmd_name"):
		run = (*Call).statsShow
	case En("leaderboard_cmd_name"):
		run = (*Call).leaderboard
	case En("forget_cmd_name"):
		run = (*Call).forgetAsk
	default:
		return false, nil
	}
	if c.I.GuildID == "" {
		c.Ephemeral(locales.T(c.Lang, "stats_server_only", nil), nil)
		return true, nil
	}
	if b.Stats() == nil {
		c.Ephemeral(locales.T(c.Lang, "stats_unavailable", nil), nil)
		return true, nil
	}
	return true, run(c, d)
}

// gameArg is the game option of a stats command ("": none); an unknown
// game is bad input.
func (c *Call) gameArg(d discordgo.ApplicationCommandInteractionData) (string, error) {
	for _, o := range d.Options {
		if o.Name != En("opt_game_name") {
			continue
		}
		v, ok := o.Value.(string)
		if !ok || !slices.Contains(c.B.gameNames(), v) {
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

// provisionalGames is how many games a person's rating is provisional
// for: it is said to be, rather than shown as a figure that one result
// swings.
const provisionalGames = 3

// shownRating is the figure shown for mu and sigma: Mu − 3·Sigma, a skill
// the person is very likely above (rating.Ordinal), which is 0 for a
// newcomer and rises with good placements; never shown below 0, so that a
// first loss does not read as a debt.
func shownRating(lang string, mu, sigma float64) string {
	return oneDecimal(lang, max(0, rating.Ordinal(rating.Rating{Mu: mu, Sigma: sigma})))
}

// ratingText is the rating of a person who played played rated games:
// provisional for the first ProvisionalGames, then ShownRating.
func ratingText(lang string, mu, sigma float64, played int) string {
	if played < provisionalGames {
		return locales.N(lang, "rating_provisional", played, map[string]any{"Of": provisionalGames})
	}
	return shownRating(lang, mu, sigma)
}

// games is a count of games in words, in the plural form of lang.
func games(lang string, n int) string { return locales.N(lang, "stats_games", n, nil) }

// wins is a count of wins in words, in the plural form of lang.
func wins(lang string, n int) string { return locales.N(lang, "stats_wins", n, nil) }

// aheadOf is the placements a rating rests on in words: how many of the
// faced opponents the person finished ahead of.
func aheadOf(lang string, ahead, faced int) string {
	return locales.N(lang, "stats_ahead", ahead, map[string]any{"Of": faced})
}

// recordText is what a leaderboard line's rating rests on: games, wins
// and placements; games and wins alone for a record that has no
// placements (kept before them).
func recordText(lang string, played, won, ahead, faced int) string {
	if faced == 0 {
		return locales.T(lang, "stats_record_unplaced", map[string]any{"Played": games(lang, played), "Won": wins(lang, won)})
	}
	return locales.T(lang, "stats_record", map[string]any{"Played": games(lang, played), "Won": wins(lang, won),
		"Ahead": aheadOf(lang, ahead, faced)})
}

// statsShow answers /stats [member] [game], privately.
func (c *Call) statsShow(d discordgo.ApplicationCommandInteractionData) error {
	game, err := c.gameArg(d)
	if err != nil {
		return err
	}
	user, name := c.User, c.Name
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
	err = c.Retry("get", func(ctx context.Context) error {
		var err error
		ps, solo, err = c.B.Stats().PlayerStats(ctx, c.I.GuildID, user)
		return err
	})
	if err != nil {
		return err
	}
	if game != "" {
		ps = slices.DeleteFunc(ps, func(p dixbot.PlayerStats) bool { return p.Game != game })
		if game != c.B.soloGame() {
			solo = nil
		}
	}
	for _, p := range ps {
		if p.Name != "" && user != c.User {
			name = p.Name
		}
	}
	lang := c.Lang
	if len(ps) == 0 && len(solo) == 0 {
		c.Ephemeral(locales.T(lang, "stats_none", map[string]any{"Name": present.Escape(name)}), nil)
		return nil
	}
	var lines []string
	fav := ""
	favPlayed := 0
	for _, p := range ps {
		rt := locales.T(lang, "stats_unrated", nil)
		if p.Rated {
			rt = ratingText(lang, p.Mu, p.Sigma, p.Played)
		}
		key, data := "stats_game", map[string]any{
			"Game": gameTitle(p.Game), "Played": games(lang, p.Played), "Won": wins(lang, p.Won),
			"Rate":   strconv.Itoa(int(100*float64(p.Won)/float64(max(p.Played, 1)) + 0.5)),
			"Avg":    oneDecimal(lang, float64(p.Total)/float64(max(p.Played, 1))),
			"Best":   p.Best,
			"Rating": rt,
		}
		if p.Faced > 0 {
			key, data["Ahead"] = "stats_game_placed", aheadOf(lang, p.Ahead, p.Faced)
		}
		lines = append(lines, locales.T(lang, key, data))
		if p.Played > favPlayed {
			fav, favPlayed = p.Game, p.Played
		}
	}
	soloPlayed := 0
	for _, s := range solo {
		lines = append(lines, locales.T(lang, "stats_solo", map[string]any{
			"Difficulty": s.Difficulty, "Played": games(lang, s.Played), "Won": wins(lang, s.Won), "Best": s.Best}))
		soloPlayed += s.Played
	}
	if soloPlayed > favPlayed {
		fav = c.B.soloGame()
	}
	if fav != "" && game == "" {
		lines = append(lines, locales.T(lang, "stats_favourite", map[string]any{"Game": gameTitle(fav)}))
	}
	emb := &discordgo.MessageEmbed{
		Title:       locales.T(lang, "stats_title", map[string]any{"Name": name}),
		Description: strings.Join(lines, "\n"),
		Footer:      &discordgo.MessageEmbedFooter{Text: locales.T(lang, "stats_rating_note", nil)},
	}
	c.Ephemeral("", nil, emb)
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
// asker's own line when they are rated below them, each with its rating
// and what the order rests on (recordText).
func (c *Call) leaderboard(d discordgo.ApplicationCommandInteractionData) error {
	game, err := c.gameArg(d)
	if err != nil {
		return err
	}
	if game == "" {
		return fmt.Errorf("%w: no game", ErrBadInput)
	}
	var top []dixbot.Standing
	var own *dixbot.Standing
	err = c.Retry("get", func(ctx context.Context) error {
		var err error
		top, own, err = c.B.Stats().Leaderboard(ctx, c.I.GuildID, game, c.User, leaderboardSize)
		return err
	})
	if err != nil {
		return err
	}
	// Public, in the language a game opened here would have: the
	// server's when it says one, else the asker's.
	lang := c.gameLanguage("", false)
	title := locales.T(lang, "leaderboard_title", map[string]any{"Game": gameTitle(game)})
	var lines []string
	line := func(key string, s dixbot.Standing) string {
		name := s.Name
		if name == "" {
			name = s.User
		}
		return locales.T(lang, key, map[string]any{"Rank": s.Rank, "Name": present.Escape(name), "Rating": ratingText(lang, s.Mu, s.Sigma, s.Played),
			"Record": recordText(lang, s.Played, s.Won, s.Ahead, s.Faced)})
	}
	for _, s := range top {
		lines = append(lines, line("leaderboard_line", s))
	}
	if len(top) == 0 {
		lines = append(lines, locales.T(lang, "leaderboard_empty", map[string]any{"Game": gameTitle(game)}))
	}
	if own != nil && own.Rank > len(top) {
		lines = append(lines, "", line("leaderboard_you", *own))
	}
	c.Respond(&discordgo.InteractionResponse{
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
func (c *Call) forgetAsk(discordgo.ApplicationCommandInteractionData) error {
	c.Ephemeral(locales.T(c.Lang, "forget_confirm", nil), []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: locales.T(c.Lang, "btn_forget_yes", nil), Style: discordgo.DangerButton, CustomID: tableID(verbForgetYes)},
			discordgo.Button{Label: locales.T(c.Lang, "btn_forget_no", nil), Style: discordgo.SecondaryButton, CustomID: tableID(verbForgetNo)},
		}},
	})
	return nil
}

// forgetYes deletes the clicker's statistics and ratings on the server of
// the click: only the clicker's, whoever's message it is.
func (c *Call) forgetYes(string) error {
	if c.I.GuildID == "" {
		return Refuse(ErrBadInput, "stats_server_only", nil)
	}
	s := c.B.Stats()
	if s == nil {
		return Refuse(ErrBadInput, "stats_unavailable", nil)
	}
	err := c.Retry("delete", func(ctx context.Context) error { return s.ForgetPlayer(ctx, c.I.GuildID, c.User) })
	if err != nil {
		return err
	}
	c.B.log.Info("a person's statistics were deleted at their request", "guild", c.I.GuildID)
	c.updateOrReply(locales.T(c.Lang, "forget_done", nil), nil)
	return nil
}

// forgetNo keeps them.
func (c *Call) forgetNo(string) error {
	c.updateOrReply(locales.T(c.Lang, "forget_kept", nil), nil)
	return nil
}
