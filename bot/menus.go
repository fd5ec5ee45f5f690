package bot

import (
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// A select menu holds 25 options at most
// (https://discord.com/developers/docs/components/reference#string-select).
// A menu of the table with more entries is shown a page at a time, never
// cut: a page holds pageSize entries and, where there are more, entries
// that turn to the page before or after. Their values are pageMark and the
// page's number, which no entry's value starts with (a game's, option's or
// pace's name is lowercase letters); choosing one redraws the message at
// that page and changes nothing.

// pageMark starts the value of an entry that turns the page.
const pageMark = "#"

// pageSize is how many entries a page shows besides the two that turn it.
const pageSize = present.MaxOptions - 2

// menuPage is the page an entry's value turns to, if it turns one.
func menuPage(value string) (int, bool) {
	n, ok := strings.CutPrefix(value, pageMark)
	if !ok {
		return 0, false
	}
	p, err := strconv.Atoi(n)
	return p, err == nil && p >= 0 && strconv.Itoa(p) == n
}

// pagedOptions is page p of all (the last page when p is beyond it): all
// when they fit one menu.
func pagedOptions(lang string, all []discordgo.SelectMenuOption, p int) []discordgo.SelectMenuOption {
	if len(all) <= present.MaxOptions {
		return all
	}
	last := (len(all) - 1) / pageSize
	p = min(max(p, 0), last)
	var out []discordgo.SelectMenuOption
	if p > 0 {
		out = append(out, discordgo.SelectMenuOption{Label: locales.T(lang, "menu_page_before", nil), Value: pageMark + strconv.Itoa(p-1)})
	}
	out = append(out, all[p*pageSize:min(len(all), (p+1)*pageSize)]...)
	if p < last {
		out = append(out, discordgo.SelectMenuOption{Label: locales.T(lang, "menu_page_after", nil), Value: pageMark + strconv.Itoa(p+1)})
	}
	return out
}
