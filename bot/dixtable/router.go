package dixtable

import (
	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot/bot"
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
func staleText(c *bot.Call, text string) (string, []discordgo.MessageComponent, []*discordgo.MessageEmbed) {
	comps := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: locales.T(c.Lang, "btn_show_board", nil), Style: discordgo.SecondaryButton, CustomID: bot.CustomID(verbShowBoard, 0)},
	}}}
	rec, m, err := tableQuiet(c)
	if err != nil || m.Board == "" {
		return text, comps, nil
	}
	if g := dix.GameOf(rec.State); g != nil && g.Phase != dix.PhaseOver && c.I.Message != nil && c.I.Message.ID == m.Board {
		if v, ok := shownVersion(c.I.Message); ok && v != m.version(g) {
			// The click came from the current board as it stood before
			// (a double click, or a board whose update was lost): rather
			// than point to the very message clicked, show the game as it
			// stands with working buttons. An action taken on them edits
			// the public board, as every action does; editing it from
			// here could race with a newer action's own update.
			return text + "\n" + locales.T(c.Lang, "stale_here", nil), dixview.BoardButtons(m.view(c.Lang), g), []*discordgo.MessageEmbed{dixview.BoardEmbed(m.view(c.Lang), g)}
		}
	}
	return text + "\n" + locales.T(c.Lang, "stale_link", map[string]any{"URL": bot.MessageURL(c.I.GuildID, c.I.ChannelID, m.Board)}), comps, nil
}

// shownVersion is the state version carried by the game buttons of msg.
func shownVersion(msg *discordgo.Message) (uint32, bool) {
	for _, id := range bot.CustomIDs(msg.Components) {
		if p, err := bot.ParseID(id); err == nil {
			if _, game := verbActions[p.Verb]; game || p.Verb == verbBuy || p.Verb == verbBid || p.Verb == verbPay {
				return p.Version, true
			}
		}
	}
	return 0, false
}

// dixVerbs are DIX's verbs in the glossary (verbs), one line each.
func dixVerbs() map[string]bot.VerbSpec {
	return map[string]bot.VerbSpec{
		// The lobby.
		verbJoin:      {Run: lobbyJoin},      // "join": take a seat
		verbLeave:     {Run: lobbyLeave},     // "leave": give one's seat back
		verbGo:        {Run: lobbyStart},     // "go": the creator starts the game
		verbCancel:    {Run: lobbyCancel},    // "cancel": the creator closes the lobby
		verbAddCPU:    {Run: lobbyAddCPU},    // "addcpu": menu seating a computer player of the level chosen
		verbRemoveCPU: {Run: lobbyRemoveCPU}, // "rmcpu": remove the last computer player

		// The board's decisions, one click each.
		verbDraw:    {Run: simpleAction}, // "draw": draw a card
		verbStop:    {Run: simpleAction}, // "stop": stop drawing
		verbNumbers: {Run: simpleAction}, // "num": take the number cards drawn
		verbMoney:   {Run: simpleAction}, // "money": take the money instead
		verbEndTurn: {Run: simpleAction}, // "end": buy nothing (also skips a final buy)
		verbConsol:  {Run: simpleAction}, // "cons": bust variant, take the consolation token
		verbBustBuy: {Run: simpleAction}, // "bbuy": bust variant, take a buy phase instead
		verbPass:    {Run: simpleAction}, // "pass": pass in an auction

		// The board's buttons that open a private prompt.
		verbBuy: {Run: buyPrompt},        // "buy": the market prompt
		verbBid: {Run: bidPrompt},        // "bid": the bid prompt
		verbPay: {Run: auctionPayPrompt}, // "pay": the auction winner's payment prompt

		// Anyone, at any time.
		verbHand:      {Run: func(c *bot.Call, _ bot.ParsedID) error { return hand(c) }, Versionless: true},      // "hand": one's own holdings, privately
		verbShowBoard: {Run: func(c *bot.Call, _ bot.ParsedID) error { return showBoard(c) }, Versionless: true}, // "show": the current board, privately
		verbBoardText: {Run: func(c *bot.Call, _ bot.ParsedID) error { return boardText(c) }, Versionless: true}, // "text": the whole board as text, privately (screen readers)
		bot.VerbLog:   {Run: logPage, Arg: bot.ArgRequired, Versionless: true},                                   // "log": a page of /dix log, arg the page (0 the most recent)
		verbKick:      {Run: kickVote, Arg: bot.ArgRequired, Versionless: true},                                  // "kick": a vote to hand seat arg to the computer

		// The bid prompt.
		verbBidAmount: {Run: bidAmount, Arg: bot.ArgRequired}, // "bidn": bid arg tokens
		verbBidCustom: {Run: bidCustom},                       // "bidc": opens the modal of a custom amount
		verbBidModal:  {Run: bidModal, Modal: true},           // "bidm": that modal, submitted

		// The market prompt: buying a card.
		verbBuySelect: {Run: buySelect, Arg: bot.ArgOptional},                                                                // "bsel": "buy select", the menu of cards to buy; arg the colour when the market is split by colour
		verbBuyPay:    {Run: buyPay, Arg: bot.ArgRequired},                                                                   // "bpay": "buy pay", pay card arg with the payment proposed
		verbBuyOther:  {Run: pickOpen, Arg: bot.ArgRequired},                                                                 // "balt": "buy alternative", another payment for card arg: opens the picker
		verbBuyModal:  {Run: func(*bot.Call, bot.ParsedID) error { return bot.ErrStale }, Modal: true, Arg: bot.ArgRequired}, // "bmod": the payment modal of older boards, outdated

		// The auction winner's payment prompt.
		verbAuctPay:   {Run: auctionPay},                                                               // "apay": "auction pay", pay with the payment proposed
		verbAuctOther: {Run: pickOpen},                                                                 // "aalt": "auction alternative", another payment: opens the picker
		verbAuctModal: {Run: func(*bot.Call, bot.ParsedID) error { return bot.ErrStale }, Modal: true}, // "amod": the payment modal of older boards, outdated

		// The payment picker (picker.go): arg is the pick so far.
		verbPickCards: {Run: pickChange, Arg: bot.ArgRequired},  // "pkc": "pick cards", a menu of number cards; arg also its number
		verbPickMoney: {Run: pickChange, Arg: bot.ArgRequired},  // "pkm": "pick money", the menu of money
		verbPickCons:  {Run: pickChange, Arg: bot.ArgRequired},  // "pkt": "pick tokens", the menu of consolation tokens
		verbPickOK:    {Run: pickConfirm, Arg: bot.ArgRequired}, // "pko": "pick OK", pay with the pick
		verbPickBack:  {Run: pickBack, Arg: bot.ArgOptional},    // "back": one step back; arg the card or "w" (auction), none the market

		// /dix abandon's confirmation.
		verbAbandonYes: {Run: abandonYes, Arg: bot.ArgOptional}, // "abyes": end the table; arg the table's origin (see abandonYes)
		verbAbandonNo:  {Run: abandonNo, Versionless: true},     // "abno": keep it

		// The final scoreboard (rematch.go).
		verbRematch: {Run: rematch, Versionless: true}, // "again": the next game with the same seats and options
	}
}
