// Package dix draws DIX positions as PNG images: the public board, one
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
// locale strings. The canvas, fonts, palette and PNG encoding are the raster
// core's (package picture).
//
// It depends only on DIX's rules (engine/dix), the raster core, the standard
// library and golang.org/x/image: never on Discord, the bot, the store,
// locales, I/O beyond the bytes it returns, logging or the clock. Every
// exported function is safe for concurrent use.
package dix
