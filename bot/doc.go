// Package bot is the Discord table every game shares: slash commands,
// the lobby, seats, computer seats, clocks and absent players, the public
// board, the buttons and ephemeral prompts that drive a game, the outbox
// of Discord work, pictures, the log, statistics and settings, and the
// translation of every error into a localised ephemeral reply.
//
// The package imports no game (TestTableImportsNoGame). The games
// registered in Options.Games (DIX, Qwixx, Dixxit: internal/app wires
// them in) are played on it through the engine contract (package engine)
// and their presenters (bot/present), each under its own command
// (/<game>) and custom ids "<game>:<verb>:<n>[:<arg>]" (table.go and
// the files it names). The table's own components (/settings',
// /forget-me's) are under "table:" (router.go).
//
// Each interaction is handled by one handler; the router reads the custom
// id, whose n is the game's state version (engine.State.Seq) or the lobby
// counter, so outdated buttons are detected and change nothing (a
// component on a message older than the table is outdated too: it belongs
// to an earlier game of the channel). A click does its whole decision
// inside one dixbot.Store.Update (one load, one save, exactly once per
// interaction id); the Discord work it owes besides its answer is recorded
// done with the channel's next change or on its own (fold.go).
// Everything sent to Discord goes through the small DiscordAPI interface
// so tests record responses instead of calling Discord.
//
// How a game takes shape in Discord:
//   - The board is one message, updated in place by answering the click
//     (UPDATE_MESSAGE) or, for a change made elsewhere (a private prompt,
//     a deadline, a computer seat), edited by the outbox.
//   - A private prompt of several steps (present.Prompt) shows its steps
//     without writing to the store; only the move it ends with is applied.
//   - The people who must decide get one short message mentioning them,
//     with a link to the board, unless they were at the board within the
//     minute; once they decided it is edited to say so, never deleted
//     (pings.go). The end of a game is told to every person
//     seated.
//   - Whatever Discord work a change owes besides the answer (a board
//     edit, a ping, retiring a board, the game's end, archiving) is an
//     outbox of effects written by the same store update as the change and
//     done after the answer; if the process dies first, any process finds
//     the game through Store.Due and does it (outbox.go,
//     outbox_run.go). Posts carry a nonce, so doing an effect twice
//     shows it once; a follow-up, which carries none, is posted only by
//     the process holding the effects (the change's own for its grace, a
//     claim for its lease: outbox.go, Hold).
//   - An answer refused for what it carries (embeds, files) becomes a
//     private text saying why (notice.go).
//   - A click on the board as it stood before (a double click, or a board
//     whose update was lost) is answered privately as outdated with the
//     game as it stands; the bot never edits the board from the side,
//     which could race with a newer action's own update.
//   - An answer not ready within 1.5 s (a slow store) is deferred and
//     finished through the interaction's token; store calls are tried
//     again within the interaction's budget, and a write that looked
//     failed is found applied before writing again (deferral.go, retry.go).
//   - The lobby is the answer to /<game> start and is owed by the outbox
//     until its message is recorded (lobby.go). A click on a
//     message the store no longer matches (its data lost, or restored
//     from an older copy) says so and retires the message's buttons in its
//     answer (lost.go).
//   - Computer seats and decisions with a single possible answer are
//     played inside the store update of the change that leads to them; a
//     game whose computer is slow has them decided before the update
//     (foresight.go).
//   - A refusal in a private prompt redraws the prompt with it on top; a
//     prompt whose decision is over turns into the "outdated" answer when
//     clicked, losing its buttons.
//   - The table data (seats, language, board message, clocks, recent
//     events, the outbox) is a small versioned JSON document in
//     dixbot.Record.Meta; the whole game's log is a record of its own
//     (channel + "/log"), for /<game> log (log.go).
//   - Records kept by DIX's own table before the shared table hosted DIX
//     are converted when read, and the buttons that table posted are
//     answered (upgrade.go).
//
// The table depends on the engine contract (engine), the presenters'
// contract (bot/present), the root package dixbot (the Record and the
// Store contract), locales (every user-facing string) and discordgo. It
// must never depend on a game (engine/<game>, computer/<game>,
// picture/<game>, bot/<game>), on a store implementation, on cmd/ or on
// configuration from the environment, and it formats no user-facing text
// itself: all of it comes from locales.
package bot
