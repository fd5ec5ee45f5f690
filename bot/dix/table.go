package dixview

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// Table is what DIX's presentation needs to know from the table that hosts
// a game, besides the game itself (dix.Game), in one language. The table
// (package bot) fills it; the functions of this package only read it.
type Table struct {
	Lang string // the language of everything below and of what is rendered
	// Names are the display names by seat as text of a message, escaped
	// (present.Escape; ALIX and the computer players named as the board
	// shows them).
	Names []string
	// Marks are, by seat, what follows a name on the board and the
	// scoreboard (absent, played by the computer); "" for none.
	Marks []string
	// Auto are, by seat, the scoreboard's line on the decisions the
	// computer took for that player; "" for none.
	Auto []string
	// TimeLeft are, by seat, the time left shown beside a player whose
	// clock does not run now; "" to show none.
	TimeLeft []string
	Turn     int      // the turn number, for the board's title
	Log      []string // the latest event lines, oldest first, already in Lang
	Solo     bool     // a solo game against ALIX (SPEC §5)
	Diff     int      // ALIX's difficulty in a solo game, 4–10
	Bust     bool     // the bust variant (SPEC 3.3)
	// Pace is the pace's name for the footer; "" for a game without a
	// clock.
	Pace string
	// Clock is the line saying when the time of the seat deciding runs
	// out, or who paused the game; "" for none.
	Clock  string
	Paused bool // nobody decides: the board offers no decision
	// Pictures: the board goes with a picture, and offers its content as
	// text to whoever asks.
	Pictures bool
	// Extra are the table's own buttons, shown after the game's (the vote
	// to hand a seat to the computer).
	Extra []discordgo.MessageComponent
}

// Name returns the display name of seat (nobody's for a seat the table
// does not have).
func (t Table) Name(seat int) string {
	if seat < 0 || seat >= len(t.Names) {
		return locales.T(t.Lang, "nobody", nil)
	}
	return t.Names[seat]
}

func (t Table) mark(seat int) string  { return at(t.Marks, seat) }
func (t Table) auto(seat int) string  { return at(t.Auto, seat) }
func (t Table) timeLeft(s int) string { return at(t.TimeLeft, s) }
func at(list []string, i int) string {
	if i < 0 || i >= len(list) {
		return ""
	}
	return list[i]
}

// IDPrefix starts the custom id of every component of a DIX game.
const IDPrefix = "dix"

// The verbs of the custom ids of DIX's own components, as the table's
// router reads them (its glossary says what each one is). Their spellings
// are stored on messages already posted and never change.
const (
	VerbDraw      = "draw"
	VerbStop      = "stop"
	VerbNumbers   = "num"
	VerbMoney     = "money"
	VerbBuy       = "buy"
	VerbEndTurn   = "end"
	VerbConsol    = "cons"
	VerbBustBuy   = "bbuy"
	VerbBid       = "bid"
	VerbPass      = "pass"
	VerbPay       = "pay"
	VerbHand      = "hand"
	VerbBoardText = "text"
	VerbBuySelect = "bsel"
	VerbBuyPay    = "bpay"
	VerbBuyOther  = "balt"
	VerbBidAmount = "bidn"
	VerbBidCustom = "bidc"
	VerbAuctPay   = "apay"
	VerbAuctOther = "aalt"
	VerbPickCards = "pkc"
	VerbPickMoney = "pkm"
	VerbPickCons  = "pkt"
	VerbPickOK    = "pko"
	VerbPickBack  = "back"
)

// ID builds a component custom id, "dix:<verb>:<version>[:<arg>]".
func ID(verb string, version uint32, args ...string) string {
	return present.CustomID(IDPrefix, verb, uint64(version), args...)
}

// MaxNumber bounds the numbers read from custom ids and forms (far above
// any legal amount).
const MaxNumber = 999

// ErrBadPick is a payment picker's custom id that does not read.
var ErrBadPick = errors.New("dixview: malformed pick")

// Refusal is a decision the engine refuses, said with words of DIX's own:
// the engine's error, and the locale key (and the data for its
// placeholders) that says it with the amounts.
type Refusal struct {
	Err  error
	Key  string
	Data map[string]any
}

func (r *Refusal) Error() string { return fmt.Sprintf("%v (%s)", r.Err, r.Key) }
func (r *Refusal) Unwrap() error { return r.Err }

// refusalKeys are the locale keys of the engine's refusals that belong to
// DIX's rules (the engine's other errors are the table's to say).
var refusalKeys = []struct {
	err error
	key string
}{
	{dix.ErrMustDraw, "dix_err_must_draw"},
	{dix.ErrDeckEmpty, "dix_err_deck_empty"},
	{dix.ErrBidTooLow, "dix_err_bid_too_low"},
	{dix.ErrBidTooHigh, "dix_err_bid_too_high"},
	{dix.ErrNotInMarket, "dix_err_not_in_market"},
	{dix.ErrIdenticalCard, "dix_err_identical_card"},
	{dix.ErrPaymentShort, "dix_err_payment_short"},
	{dix.ErrNotOwned, "dix_err_not_owned"},
	{dix.ErrWildPayment, "dix_err_wild_payment"},
	{dix.ErrSoloPayment, "dix_err_solo_payment"},
	{dix.ErrSuperfluousPayment, "dix_err_superfluous_payment"},
	{dix.ErrCannotAfford, "dix_err_cannot_afford"},
	{dix.ErrBadCard, "dix_err_bad_card"},
}

// RefusalKey returns the locale key of err when it is (or wraps) one of
// the engine's refusals of a move against DIX's rules.
func RefusalKey(err error) (string, bool) {
	for _, r := range refusalKeys {
		if errors.Is(err, r.err) {
			return r.key, true
		}
	}
	return "", false
}

// refusalText says err in lang: a Refusal with its own words, a refusal of
// DIX's rules with its key, anything else as the table's internal error.
func refusalText(lang string, err error) string {
	var r *Refusal
	if errors.As(err, &r) {
		return locales.T(lang, r.Key, r.Data)
	}
	if key, ok := RefusalKey(err); ok {
		return locales.T(lang, key, nil)
	}
	return locales.T(lang, "err_internal", nil)
}

// Embed colours (not text).
const (
	colorBoard   = 0x2b6cb0
	colorOver    = 0xd69e2e
	colorSummary = 0x718096
	colorPrompt  = 0x805ad5
)

func button(lang, key string, data map[string]any, style discordgo.ButtonStyle, id string) discordgo.Button {
	return discordgo.Button{Label: present.Truncate(locales.T(lang, key, data), present.MaxButtonLabel), Style: style, CustomID: id}
}

func itoa(n int) string { return strconv.Itoa(n) }
