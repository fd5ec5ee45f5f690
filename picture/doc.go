// Package picture draws DIX positions as PNG images: the public board, one
// player's hand and the final scoreboard, with number cards as small cards in
// their colour, the wilds where the scorer places them, currency cards and
// tokens.
//
// Colours are told apart by shape as well as hue: every colour has its own
// corner symbol (blue circle, green triangle, orange square, pink diamond),
// and the four card faces stay apart under simulated deuteranopia,
// protanopia and tritanopia (palette_test.go states the method and the
// threshold).
//
// The only words drawn are the ones the caller passes (names and localised
// labels); everything else is numbers and symbols, so the package holds no
// locale strings. Rasterising uses golang.org/x/image with the embedded Go
// fonts: no system fonts, no cgo. Card faces and text are rasterised once and
// cached; the picture is an 8-bit paletted image, which keeps both the
// encoding time and the PNG small.
//
// It depends only on the engine (and the standard library and
// golang.org/x/image): never on Discord, the bot, the store, locales, I/O
// beyond the bytes it returns, logging or the clock. Every exported function
// is safe for concurrent use.
package picture
