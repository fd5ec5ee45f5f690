// Package bot is the Discord side of DIX: slash commands, the lobby, the
// public board, the buttons and ephemeral prompts that drive a game, and the
// translation of every error into a localised ephemeral reply.
//
// Each interaction is handled by one handler with the signature
// func(*call) error; a router parses component custom ids of the form
// "dix:<verb>:<version>[:<arg>]" where version is the game's state version
// (engine.Game.Seq) or the lobby counter, so outdated buttons are detected
// and change nothing. A click does its whole decision inside one
// dixbot.Store.Update (one load, one save, exactly once per interaction id);
// only turn boundaries write a second time (to remember the new board
// message). Everything sent to Discord goes through the small discordAPI
// interface so tests record responses instead of calling Discord.
//
// The package depends on the engine (the rules), the root package dixbot
// (the Record and the Store contract), locales (every user-facing string)
// and discordgo. It must never depend on a store implementation, on cmd/ or
// on configuration from the environment; it formats no user-facing text
// itself: all of it comes from locales.
package bot
