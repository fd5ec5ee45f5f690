package bot

import (
	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"

	dixview "github.com/dixgame/dixbot/bot/dix"
)

// The verbs of the custom ids "dix:<verb>:<version>[:<arg>]". Their
// spellings are stored on messages already posted and never change; what
// each one is, its argument and its handler are in the glossary, verbs.
// The verbs of the components DIX's presentation builds are bot/dix's.
const (
	verbJoin   = "join"
	verbLeave  = "leave"
	verbGo     = "go"
	verbCancel = "cancel"

	verbDraw      = dixview.VerbDraw
	verbStop      = dixview.VerbStop
	verbNumbers   = dixview.VerbNumbers
	verbMoney     = dixview.VerbMoney
	verbBuy       = dixview.VerbBuy
	verbEndTurn   = dixview.VerbEndTurn
	verbConsol    = dixview.VerbConsol
	verbBustBuy   = dixview.VerbBustBuy
	verbBid       = dixview.VerbBid
	verbPass      = dixview.VerbPass
	verbPay       = dixview.VerbPay
	verbHand      = dixview.VerbHand
	verbShowBoard = "show"
	verbBoardText = dixview.VerbBoardText

	verbBidAmount  = dixview.VerbBidAmount
	verbBidCustom  = dixview.VerbBidCustom
	verbBidModal   = "bidm"
	verbBuySelect  = dixview.VerbBuySelect
	verbBuyPay     = dixview.VerbBuyPay
	verbBuyOther   = dixview.VerbBuyOther
	verbBuyModal   = "bmod"
	verbAuctPay    = dixview.VerbAuctPay
	verbAuctOther  = dixview.VerbAuctOther
	verbAuctModal  = "amod"
	verbPickCards  = dixview.VerbPickCards
	verbPickMoney  = dixview.VerbPickMoney
	verbPickCons   = dixview.VerbPickCons
	verbPickOK     = dixview.VerbPickOK
	verbPickBack   = dixview.VerbPickBack
	verbAddCPU     = "addcpu"
	verbRemoveCPU  = "rmcpu"
	verbKick       = "kick"
	verbAbandonYes = "abyes"
	verbAbandonNo  = "abno"
)

// staleText adds the way back to the current board to an "outdated" message.
func (c *call) staleText(text string) (string, []discordgo.MessageComponent, []*discordgo.MessageEmbed) {
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: locales.T(c.lang, "btn_show_board", nil), Style: discordgo.SecondaryButton, CustomID: customID(verbShowBoard, 0)},
	}}}
	rec, m, err := c.tableQuiet()
	if err != nil || m.Board == "" {
		return text, comps, nil
	}
	if g := rec.State; g != nil && g.Phase != dix.PhaseOver && c.i.Message != nil && c.i.Message.ID == m.Board {
		if v, ok := shownVersion(c.i.Message); ok && v != m.version(g) {
			// The click came from the current board as it stood before
			// (a double click, or a board whose update was lost): rather
			// than point to the very message clicked, show the game as it
			// stands with working buttons. An action taken on them edits
			// the public board, as every action does; editing it from
			// here could race with a newer action's own update.
			return text + "\n" + locales.T(c.lang, "stale_here", nil), dixview.BoardButtons(m.view(c.lang), g), []*discordgo.MessageEmbed{dixview.BoardEmbed(m.view(c.lang), g)}
		}
	}
	return text + "\n" + locales.T(c.lang, "stale_link", map[string]any{"URL": messageURL(c.i.GuildID, c.i.ChannelID, m.Board)}), comps, nil
}

// shownVersion is the state version carried by the game buttons of msg.
func shownVersion(msg *discordgo.Message) (uint32, bool) {
	for _, id := range customIDs(msg.Components) {
		if p, err := parseID(id); err == nil {
			if _, game := verbActions[p.verb]; game || p.verb == verbBuy || p.verb == verbBid || p.verb == verbPay {
				return p.version, true
			}
		}
	}
	return 0, false
}

// dixVerbs are DIX's verbs in the glossary (verbs), one line each.
func dixVerbs() map[string]verbSpec {
	return map[string]verbSpec{
		// The lobby.
		verbJoin:      {run: (*call).lobbyJoin},      // "join": take a seat
		verbLeave:     {run: (*call).lobbyLeave},     // "leave": give one's seat back
		verbGo:        {run: (*call).lobbyStart},     // "go": the creator starts the game
		verbCancel:    {run: (*call).lobbyCancel},    // "cancel": the creator closes the lobby
		verbAddCPU:    {run: (*call).lobbyAddCPU},    // "addcpu": menu seating a computer player of the level chosen
		verbRemoveCPU: {run: (*call).lobbyRemoveCPU}, // "rmcpu": remove the last computer player

		// The board's decisions, one click each.
		verbDraw:    {run: (*call).simpleAction}, // "draw": draw a card
		verbStop:    {run: (*call).simpleAction}, // "stop": stop drawing
		verbNumbers: {run: (*call).simpleAction}, // "num": take the number cards drawn
		verbMoney:   {run: (*call).simpleAction}, // "money": take the money instead
		verbEndTurn: {run: (*call).simpleAction}, // "end": buy nothing (also skips a final buy)
		verbConsol:  {run: (*call).simpleAction}, // "cons": bust variant, take the consolation token
		verbBustBuy: {run: (*call).simpleAction}, // "bbuy": bust variant, take a buy phase instead
		verbPass:    {run: (*call).simpleAction}, // "pass": pass in an auction

		// The board's buttons that open a private prompt.
		verbBuy: {run: (*call).buyPrompt},        // "buy": the market prompt
		verbBid: {run: (*call).bidPrompt},        // "bid": the bid prompt
		verbPay: {run: (*call).auctionPayPrompt}, // "pay": the auction winner's payment prompt

		// Anyone, at any time.
		verbHand:      {run: func(c *call, _ parsedID) error { return c.hand() }, versionless: true},      // "hand": one's own holdings, privately
		verbShowBoard: {run: func(c *call, _ parsedID) error { return c.showBoard() }, versionless: true}, // "show": the current board, privately
		verbBoardText: {run: func(c *call, _ parsedID) error { return c.boardText() }, versionless: true}, // "text": the whole board as text, privately (screen readers)
		verbLog:       {run: (*call).logPage, arg: argRequired, versionless: true},                        // "log": a page of /dix log, arg the page (0 the most recent)
		verbKick:      {run: (*call).kickVote, arg: argRequired, versionless: true},                       // "kick": a vote to hand seat arg to the computer

		// The bid prompt.
		verbBidAmount: {run: (*call).bidAmount, arg: argRequired}, // "bidn": bid arg tokens
		verbBidCustom: {run: (*call).bidCustom},                   // "bidc": opens the modal of a custom amount
		verbBidModal:  {run: (*call).bidModal, modal: true},       // "bidm": that modal, submitted

		// The market prompt: buying a card.
		verbBuySelect: {run: (*call).buySelect, arg: argOptional},                                            // "bsel": "buy select", the menu of cards to buy; arg the colour when the market is split by colour
		verbBuyPay:    {run: (*call).buyPay, arg: argRequired},                                               // "bpay": "buy pay", pay card arg with the payment proposed
		verbBuyOther:  {run: (*call).pickOpen, arg: argRequired},                                             // "balt": "buy alternative", another payment for card arg: opens the picker
		verbBuyModal:  {run: func(*call, parsedID) error { return ErrStale }, modal: true, arg: argRequired}, // "bmod": the payment modal of older boards, outdated

		// The auction winner's payment prompt.
		verbAuctPay:   {run: (*call).auctionPay},                                           // "apay": "auction pay", pay with the payment proposed
		verbAuctOther: {run: (*call).pickOpen},                                             // "aalt": "auction alternative", another payment: opens the picker
		verbAuctModal: {run: func(*call, parsedID) error { return ErrStale }, modal: true}, // "amod": the payment modal of older boards, outdated

		// The payment picker (picker.go): arg is the pick so far.
		verbPickCards: {run: (*call).pickChange, arg: argRequired},  // "pkc": "pick cards", a menu of number cards; arg also its number
		verbPickMoney: {run: (*call).pickChange, arg: argRequired},  // "pkm": "pick money", the menu of money
		verbPickCons:  {run: (*call).pickChange, arg: argRequired},  // "pkt": "pick tokens", the menu of consolation tokens
		verbPickOK:    {run: (*call).pickConfirm, arg: argRequired}, // "pko": "pick OK", pay with the pick
		verbPickBack:  {run: (*call).pickBack, arg: argOptional},    // "back": one step back; arg the card or "w" (auction), none the market

		// /dix abandon's confirmation.
		verbAbandonYes: {run: (*call).abandonYes, arg: argOptional}, // "abyes": end the table; arg the table's origin (see abandonYes)
		verbAbandonNo:  {run: (*call).abandonNo, versionless: true}, // "abno": keep it

		// The final scoreboard (rematch.go).
		verbRematch: {run: (*call).rematch, versionless: true}, // "again": the next game with the same seats and options
	}
}
