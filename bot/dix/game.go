package dixview

import (
	"strconv"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/computer"
	cdix "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// Game returns DIX as the shared table registers it: 1 seat (solo against
// ALIX, §5) to 5, computer levels easy, normal and strong, a leaving
// player's seat played at the strong level, time banks (Paces), the
// computer's decisions foreseen (present.Game.Foresight), and DIX's
// options: the bust variant (3.3) and ALIX's difficulty (§5, within the
// rules' bounds).
func Game() present.Game {
	levels := make([]string, len(computer.Levels))
	for i, l := range computer.Levels {
		levels[i] = l.String()
	}
	return present.Game{
		Rules:     dix.Rules{},
		Presenter: Presenter{},
		Player: func(level, _ string) engine.Player {
			l, err := computer.ParseLevel(level)
			if err != nil {
				l = computer.Strong
			}
			return cdix.Player{Level: l}
		},
		Levels:   levels,
		Default:  computer.Strong.String(),
		MinSeats: 1,
		Views:    []string{stepHand},
		MaxSeats: 5,
		Paces:    Paces,
		Options:  Options(),
		// The strong level searches the turns ahead (computer/dix).
		Foresight: true,
		// Records of DIX's own table are converted when read.
		Upgrade:  Upgrade,
		OldClick: OldClick,
		// And so are the settings it kept for DIX.
		UpgradeSettings: UpgradeSettings,
	}
}

// Paces are DIX's clocks, the evening pace first (the default): a time
// bank per player and an increment at every decision (package clock).
var Paces = present.BankPaces(clock.Defaults, clock.DefaultPace)

// Options are DIX's own options: the bust variant, off by default, and
// ALIX's difficulty in a solo game, 4 to 10 (§5), 4 by default as the
// rulebook suggests.
func Options() []present.Option {
	var diffs []string
	for d := dix.MinDifficulty; d <= dix.MaxDifficulty; d++ {
		diffs = append(diffs, strconv.Itoa(d))
	}
	return []present.Option{
		{Name: dix.OptBust, Values: []string{"off", "on"}, Default: "off"},
		{Name: dix.OptDifficulty, Values: diffs, Default: strconv.Itoa(dix.MinDifficulty), Solo: true,
			Label: func(lang, v string) string {
				return locales.T(lang, "dix_opt_difficulty_value", map[string]any{"Level": v, "Name": locales.T(lang, "dix_difficulty_"+v, nil)})
			}},
	}
}
