package app

import (
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/bot/qwixx"
)

// Games are the games the table hosts, one line each: the one place
// where the games are wired in.
func Games() []present.Game {
	return []present.Game{
		dixview.Game(),
		qwixx.Game(),
		dixxit.Game(),
	}
}

// games returns the configured games, Games() unless set.
func (cfg Config) games() []present.Game {
	if cfg.Games != nil {
		return cfg.Games
	}
	return Games()
}
