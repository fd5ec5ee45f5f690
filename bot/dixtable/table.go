package dixtable

import (
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
)

// names is what DIX's presentation (bot/dix) needs of the table to name
// the seats in lang: the lines of events, the hand.
func (m *dixTable) names(lang string) dixview.Table {
	t := dixview.Table{Lang: lang, Names: make([]string, len(m.Seats))}
	for s := range m.Seats {
		t.Names[s] = m.name(lang, s)
	}
	return t
}

// view is everything DIX's presentation needs of the table in lang: the
// board, its buttons, the scoreboard.
func (m *dixTable) view(lang string) dixview.Table {
	t := m.names(lang)
	t.Marks = make([]string, len(m.Seats))
	t.Auto = make([]string, len(m.Seats))
	t.TimeLeft = make([]string, len(m.Seats))
	for s := range m.Seats {
		t.Marks[s] = seatMark(lang, m, s)
		t.Auto[s] = autoText(lang, m, s)
		if c := m.Clock; c != nil && s < len(c.Banks) && m.clocked(s) && s != c.Seat {
			t.TimeLeft[s] = present.TimeLeftText(lang, c.Banks[s])
		}
	}
	t.Turn, t.Log = m.Turn, m.Log
	t.Solo, t.Diff, t.Bust = m.Solo, m.Diff, m.Bust
	if m.Clock != nil {
		t.Pace = present.PaceText(lang, m.Clock.Pace)
	}
	t.Clock = clockLine(lang, m)
	t.Paused = m.PausedBy != ""
	t.Pictures = !m.NoPictures
	t.Extra = kickButtons(lang, m)
	return t
}
