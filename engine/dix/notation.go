package dix

import (
	"fmt"
	"strings"
)

// FormatAction writes a as a scenario action line ("p0 buy g3 pay money 2
// cards g1"), for logs and tools.
func FormatAction(a Action) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "p%d %s", a.Player, a.Kind)
	switch a.Kind {
	case ActBid:
		fmt.Fprintf(&sb, " %d", a.Amount)
	case ActBuy:
		fmt.Fprintf(&sb, " %s pay", a.Card)
	}
	if a.Kind == ActBuy || a.Kind == ActPay {
		p := a.Payment
		if p.Money == 0 && p.Consolation == 0 && len(p.Cards) == 0 {
			sb.WriteString(" nothing")
		}
		if p.Money != 0 {
			fmt.Fprintf(&sb, " money %d", p.Money)
		}
		if p.Consolation != 0 {
			fmt.Fprintf(&sb, " consolation %d", p.Consolation)
		}
		if len(p.Cards) > 0 {
			sb.WriteString(" cards " + FormatCards(p.Cards))
		}
	}
	return sb.String()
}
