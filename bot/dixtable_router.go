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
	for _, row := range msg.Components {
		var cs []discordgo.MessageComponent
		switch r := row.(type) {
		case *discordgo.ActionsRow:
			cs = r.Components
		case discordgo.ActionsRow:
			cs = r.Components
		}
		for _, comp := range cs {
			var id string
			switch b := comp.(type) {
			case *discordgo.Button:
				id = b.CustomID
			case discordgo.Button:
				id = b.CustomID
			}
			if p, err := parseID(id); err == nil {
				if _, game := verbActions[p.verb]; game || p.verb == verbBuy || p.verb == verbBid || p.verb == verbPay {
					return p.version, true
				}
			}
		}
	}
	return 0, false
}
