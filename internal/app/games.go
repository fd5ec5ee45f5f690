package app

import (
	"github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/bot/qwixx"
)

// Games are the games the table hosts besides DIX, one line each: the one
// place where the games are wired in.
func Games() []present.Game {
	return []present.Game{
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
