package app

import (
	// DIX keeps a table of its own (/dix, "dix:" ids), hosted by every
	// process that links it (bot.Host).
	_ "github.com/dixgame/dixbot/bot/dixtable"
	"github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/bot/qwixx"
)

// Games are the games the shared table hosts, one line each: with DIX's
// own table imported above, the one place where the games are wired in.
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
