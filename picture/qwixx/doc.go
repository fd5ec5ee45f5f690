// Package qwixx draws a Qwixx game as one PNG picture: the roll (the two
// white dice, the white sum, the coloured dice, a die out of play greyed
// and crossed), then every seat's sheet with its marks, the numbers passed
// over dimmed, the locks, the penalty boxes and the running score per row
// and in all, the seats that must decide framed in gold.
//
// The four rows are told apart by position and direction as well as hue
// (red and yellow run 2 → 12, green and blue 12 → 2, always in that order).
//
// The only words drawn are the ones the caller passes (names and the
// optional Labels); everything else is numbers and shapes, so the package
// holds no locale strings. The canvas, fonts, palette and PNG encoding are
// the raster core's (package picture).
//
// It depends only on Qwixx's rules (engine/qwixx, for its View), the raster
// core, the standard library and golang.org/x/image: never on Discord, the
// bot, the store, locales, I/O beyond the bytes it returns, logging or the
// clock. Every exported function is safe for concurrent use.
package qwixx
