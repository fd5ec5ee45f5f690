package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Component verbs: the second part of a custom id "dix:<verb>:<version>[:<arg>]".
// The version is the lobby counter for lobby verbs and dix.Game.Seq for
// game verbs; verbs anyone may use at any time carry 0.
const (
	verbJoin   = "join"
	verbLeave  = "leave"
	verbGo     = "go"
	verbCancel = "cancel"

	verbDraw      = "draw"
	verbStop      = "stop"
	verbNumbers   = "num"
	verbMoney     = "money"
	verbBuy       = "buy"  // opens the market prompt
	verbEndTurn   = "end"  // skip the buy (also skips a final buy)
	verbConsol    = "cons" // bust variant: take the consolation token
	verbBustBuy   = "bbuy" // bust variant: take a buy phase
	verbBid       = "bid"  // opens the bid prompt
	verbPass      = "pass"
	verbPay       = "pay" // auction winner: opens the payment prompt
	verbHand      = "hand"
	verbShowBoard = "show"
	verbBoardText = "text" // the whole board as text, privately

	verbBidAmount  = "bidn" // arg: amount
	verbBidCustom  = "bidc" // opens the custom amount modal
	verbBidModal   = "bidm"
	verbBuySelect  = "bsel" // arg: colour letter when split by colour
	verbBuyPay     = "bpay" // arg: card
	verbBuyOther   = "balt" // arg: card; opens the payment picker
	verbBuyModal   = "bmod" // the former payment modal: outdated
	verbAuctPay    = "apay"
	verbAuctOther  = "aalt"   // opens the payment picker
	verbAuctModal  = "amod"   // the former payment modal: outdated
	verbPickCards  = "pkc"    // arg: pick and card menu number (picker.go)
	verbPickMoney  = "pkm"    // arg: pick
	verbPickCons   = "pkt"    // arg: pick
	verbPickOK     = "pko"    // arg: pick; pays with it
	verbPickBack   = "back"   // arg: card or "w" (auction); none: the market
	verbAddCPU     = "addcpu" // lobby select: a computer player of the level chosen
	verbLog        = "log"    // arg: page of /dix log, 0 the most recent
	verbRemoveCPU  = "rmcpu"  // lobby: remove the last computer player
	verbKick       = "kick"   // arg: the seat to hand to the computer
	verbAbandonYes = "abyes"
	verbAbandonNo  = "abno"
)

const idPrefix = "dix"

// customID builds a component custom id.
func customID(verb string, version uint32, args ...string) string {
	var sb strings.Builder
	sb.WriteString(idPrefix)
	sb.WriteByte(':')
	sb.WriteString(verb)
	sb.WriteByte(':')
	sb.WriteString(strconv.FormatUint(uint64(version), 10))
	for _, a := range args {
		sb.WriteByte(':')
		sb.WriteString(a)
	}
	return sb.String()
}

// parsedID is a parsed custom id.
type parsedID struct {
	verb    string
	version uint32
	arg     string
}

// parseID parses a custom id; ErrBadCustomID for anything not built by customID.
func parseID(s string) (parsedID, error) {
	if len(s) > 100 {
		return parsedID{}, fmt.Errorf("%w: too long", ErrBadCustomID)
	}
	parts := strings.Split(s, ":")
	if len(parts) < 3 || len(parts) > 4 || parts[0] != idPrefix {
		return parsedID{}, fmt.Errorf("%w: %q", ErrBadCustomID, s)
	}
	v, err := strconv.ParseUint(parts[2], 10, 32)
	if err != nil {
		return parsedID{}, fmt.Errorf("%w: version %q", ErrBadCustomID, parts[2])
	}
	if len(parts[2]) > 1 && parts[2][0] == '0' {
		return parsedID{}, fmt.Errorf("%w: version %q", ErrBadCustomID, parts[2])
	}
	p := parsedID{verb: parts[1], version: uint32(v)}
	if _, ok := componentHandlers[p.verb]; !ok {
		if _, ok := modalHandlers[p.verb]; !ok {
			return parsedID{}, fmt.Errorf("%w: verb %q", ErrBadCustomID, p.verb)
		}
	}
	if versionless[p.verb] && p.version != 0 {
		return parsedID{}, fmt.Errorf("%w: %q carries no version", ErrBadCustomID, p.verb)
	}
	hasArg := len(parts) == 4
	switch verbArgs[p.verb] {
	case argNone:
		if hasArg {
			return parsedID{}, fmt.Errorf("%w: %q takes no argument", ErrBadCustomID, p.verb)
		}
	case argRequired:
		if !hasArg {
			return parsedID{}, fmt.Errorf("%w: %q needs an argument", ErrBadCustomID, p.verb)
		}
	}
	if hasArg {
		if parts[3] == "" {
			return parsedID{}, fmt.Errorf("%w: empty argument", ErrBadCustomID)
		}
		p.arg = parts[3]
	}
	return p, nil
}

// argSpec says whether a verb's custom id carries an argument.
type argSpec uint8

const (
	argNone argSpec = iota
	argRequired
	argOptional
)

// verbArgs lists the verbs that take an argument; every other verb refuses one.
var verbArgs = map[string]argSpec{
	verbBidAmount:  argRequired, // the amount
	verbBuySelect:  argOptional, // the colour, when the market is split by colour
	verbBuyPay:     argRequired, // the card
	verbBuyOther:   argRequired,
	verbBuyModal:   argRequired,
	verbPickCards:  argRequired, // the pick so far (picker.go)
	verbPickMoney:  argRequired,
	verbPickCons:   argRequired,
	verbPickOK:     argRequired,
	verbPickBack:   argOptional, // the card, or "w" for an auction; none: the market
	verbLog:        argRequired, // the page
	verbKick:       argRequired, // the seat
	verbAbandonYes: argOptional, // the table's origin (see abandonYes)
}

// versionless lists the verbs anyone may use at any time: their version is 0.
var versionless = map[string]bool{verbHand: true, verbShowBoard: true, verbBoardText: true, verbAbandonNo: true, verbLog: true, verbKick: true}

// checkVersion compares the state version a component carries with the
// table's: an older one is outdated (ErrStale), a newer one shows a state
// the store no longer has (ErrAhead: its data was restored from an older
// copy; Discord sends only the custom ids of a message's own components,
// so a newer one is never made up by a user).
func checkVersion(shown, current uint32) error {
	switch {
	case shown > current:
		return fmt.Errorf("%w: version %d is newer than the table's %d", ErrAhead, shown, current)
	case shown < current:
		return ErrStale
	}
	return nil
}

type componentHandler func(c *call, p parsedID) error

var componentHandlers map[string]componentHandler
var modalHandlers map[string]componentHandler

func init() {
	componentHandlers = map[string]componentHandler{
		verbJoin:   (*call).lobbyJoin,
		verbLeave:  (*call).lobbyLeave,
		verbGo:     (*call).lobbyStart,
		verbCancel: (*call).lobbyCancel,

		verbDraw:      (*call).simpleAction,
		verbStop:      (*call).simpleAction,
		verbNumbers:   (*call).simpleAction,
		verbMoney:     (*call).simpleAction,
		verbEndTurn:   (*call).simpleAction,
		verbConsol:    (*call).simpleAction,
		verbBustBuy:   (*call).simpleAction,
		verbPass:      (*call).simpleAction,
		verbBuy:       (*call).buyPrompt,
		verbBid:       (*call).bidPrompt,
		verbPay:       (*call).auctionPayPrompt,
		verbHand:      func(c *call, _ parsedID) error { return c.hand() },
		verbShowBoard: func(c *call, _ parsedID) error { return c.showBoard() },
		verbBoardText: func(c *call, _ parsedID) error { return c.boardText() },

		verbBidAmount:  (*call).bidAmount,
		verbBidCustom:  (*call).bidCustom,
		verbBuySelect:  (*call).buySelect,
		verbBuyPay:     (*call).buyPay,
		verbBuyOther:   (*call).pickOpen,
		verbAuctPay:    (*call).auctionPay,
		verbAuctOther:  (*call).pickOpen,
		verbPickCards:  (*call).pickChange,
		verbPickMoney:  (*call).pickChange,
		verbPickCons:   (*call).pickChange,
		verbPickOK:     (*call).pickConfirm,
		verbPickBack:   (*call).pickBack,
		verbAddCPU:     (*call).lobbyAddCPU,
		verbLog:        (*call).logPage,
		verbRemoveCPU:  (*call).lobbyRemoveCPU,
		verbKick:       (*call).kickVote,
		verbAbandonYes: (*call).abandonYes,
		verbAbandonNo:  (*call).abandonNo,
	}
	modalHandlers = map[string]componentHandler{
		verbBidModal:  (*call).bidModal,
		verbBuyModal:  func(*call, parsedID) error { return ErrStale },
		verbAuctModal: func(*call, parsedID) error { return ErrStale },
	}
}

// route sends an interaction to its handler.
func (b *Bot) route(c *call) error {
	if c.i.ChannelID == "" {
		return ErrNoChannel
	}
	switch c.i.Type {
	case discordgo.InteractionApplicationCommand:
		d, ok := c.i.Data.(discordgo.ApplicationCommandInteractionData)
		if !ok {
			return ErrBadInput
		}
		return b.command(c, d)
	case discordgo.InteractionMessageComponent:
		d, ok := c.i.Data.(discordgo.MessageComponentInteractionData)
		if !ok {
			return ErrBadCustomID
		}
		p, err := parseID(d.CustomID)
		if err != nil {
			return err
		}
		h, ok := componentHandlers[p.verb]
		if !ok {
			return fmt.Errorf("%w: %q is not a component", ErrBadCustomID, p.verb)
		}
		return h(c, p)
	case discordgo.InteractionModalSubmit:
		d, ok := c.i.Data.(discordgo.ModalSubmitInteractionData)
		if !ok {
			return ErrBadInput
		}
		p, err := parseID(d.CustomID)
		if err != nil {
			return err
		}
		h, ok := modalHandlers[p.verb]
		if !ok {
			return fmt.Errorf("%w: %q is not a modal", ErrBadCustomID, p.verb)
		}
		return h(c, p)
	}
	return ErrBadInput
}

// values returns the selected values of a select menu interaction.
func (c *call) values() []string {
	if d, ok := c.i.Data.(discordgo.MessageComponentInteractionData); ok {
		return d.Values
	}
	return nil
}

// modalValues returns the text inputs of a modal submission by custom id.
func (c *call) modalValues() map[string]string {
	out := map[string]string{}
	d, ok := c.i.Data.(discordgo.ModalSubmitInteractionData)
	if !ok {
		return out
	}
	var walk func([]discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, comp := range cs {
			switch v := comp.(type) {
			case *discordgo.ActionsRow:
				walk(v.Components)
			case discordgo.ActionsRow:
				walk(v.Components)
			case *discordgo.TextInput:
				out[v.CustomID] = v.Value
			case discordgo.TextInput:
				out[v.CustomID] = v.Value
			}
		}
	}
	walk(d.Components)
	return out
}
