// Package locales holds every user-facing string of the bot, in English and
// French, and looks them up.
//
// The message files en.toml and fr.toml are embedded and loaded with
// go-i18n (CLDR plural rules: "1 card" / "2 cards", "1 carte" / "2 cartes").
// Both files must have exactly the same keys and placeholders; a test checks
// it. The keys of one game start with its name (dix_, qwixx_, dixxit_); the
// others are the table's, shared by every game (bot/keyprefix_test.go checks
// both, and that every key is used). The package depends on no other package of the project and never on
// Discord: callers map a Discord locale to a language with For.
package locales
