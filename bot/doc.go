// Package bot is the Discord table every game shares: slash commands,
// the lobby, seats, computer seats, clocks and absent players, the public
// board, the buttons and ephemeral prompts that drive a game, the outbox
// of Discord work, pictures, the log, statistics and settings, and the
// translation of every error into a localised ephemeral reply.
//
// The package imports no game (TestTableImportsNoGame). The games
// registered in Options.Games (Qwixx, Dixxit, and any other: internal/app
// wires them in) are played on it through the engine contract (package
// engine) and their presenters (bot/present), under their own commands and
// custom ids (contract.go and the files it names). DIX keeps a table of its
// own, package bot/dixtable, with its handlers, turn loop, lobby, clocks,
// outbox effects and pictures, under /dix and the custom ids
// "dix:<verb>:..."; it registers itself with Host, and the table reaches
// it only through the interface OwnTable (owntable.go).
//
// What follows describes DIX's table, which the contract table follows
// for every game (contract.go says where it differs).
//
// Each interaction is handled by one handler; a router parses component
// custom ids of the form "dix:<verb>:<version>[:<arg>]" where version is the
// game's state version (dix.Game.Seq) or the lobby counter, so outdated
// buttons are detected and change nothing (a component on a message older
// than the table is outdated too: it belongs to an earlier game of the
// channel). A click does its whole decision inside one dixbot.Store.Update
// (one load, one save, exactly once per interaction id); only a click that
// owes Discord work besides its answer (a new board, a ping) writes a second
// time, once that work is done, to record the messages it posted.
// Everything sent to Discord goes through the small discordAPI interface so
// tests record responses instead of calling Discord.
//
// How the game takes shape in Discord:
//   - Each turn gets a fresh board message that pings the player who must
//     act; within the turn the board is updated in place by answering the
//     click (UPDATE_MESSAGE); when the turn ends the old board becomes a
//     summary of the turn, without buttons.
//   - When the decision passes to someone else within a turn (bidders, the
//     auction winner, the final buy round), that person gets one short
//     message mentioning only them, with a link to the board; the active
//     player is not pinged within their own turn. Once that decision is
//     made the message is edited to say so, never deleted, so the
//     notification still leads to a message. The final scoreboard mentions
//     every player once.
//   - Whatever Discord work a change owes besides the answer (a fresh
//     board, a ping, retiring a board, the scoreboard, archiving) is an
//     outbox of effects written by the same store update as the change and
//     done after the answer; if the process dies first, any process finds
//     the game through Store.Due and does it (outbox.go). Posts carry a
//     nonce, so doing an effect twice shows it once; a follow-up, which
//     carries none, is posted only by the process holding the effects (the
//     change's own for its grace, a claim for its lease: outbox.go, hold).
//   - A board (or the final scoreboard) Discord refuses for good (a
//     permission removed mid-game, a thread archived) is never dropped:
//     the game records why, holds its clock, and tries again, by itself
//     at growing intervals and at once on every click or command in the
//     game, whose user is told privately what is missing and what to do
//     (notice.go). An answer refused for what it carries (embeds, files)
//     becomes a private text saying why.
//   - A click on the current board as it stood before (a double click, or a
//     board whose update was lost) is answered privately with the game as
//     it stands and working buttons; the bot never edits the board from the
//     side, which could race with a newer action's own update.
//   - An answer not ready within 1.5 s (a slow store) is deferred and
//     finished through the interaction's token; store calls are tried
//     again within the interaction's budget, and a write that looked
//     failed is found applied before writing again (deferral.go, retry.go).
//   - The lobby is the answer to /dix start and is owed by the outbox until
//     its message is recorded; /dix start and /dix board post it again when
//     it is not known. A click on a message the store no longer matches
//     (its data lost, or restored from an older copy) says so and retires
//     the message's buttons in its answer (lost.go).
//   - Computer players (seats with a level, no user) and decisions with a
//     single possible answer are played at once inside the store update of
//     the click that leads to them, and told on the board like ALIX's.
//   - A refusal in a private prompt redraws the prompt with it on top; a
//     prompt whose decision is over turns into the "outdated" answer when
//     clicked, losing its buttons.
//   - The table data (seats, language, board message, recent events, the
//     current turn's lines, the outbox) is a small versioned JSON document
//     in dixbot.Record.Meta; the whole game's log is a record of its own
//     (channel + "/log"), written once per turn by the outbox, for /dix log.
//
// The table depends on the engine contract (engine), the presenters'
// contract (bot/present), the root package dixbot (the Record and the
// Store contract), locales (every user-facing string) and discordgo. It
// must never depend on a game (engine/<game>, computer/<game>,
// picture/<game>, bot/<game>, bot/dixtable), on a store implementation, on
// cmd/ or on configuration from the environment, and it formats no
// user-facing text itself: all of it comes from locales.
package bot
