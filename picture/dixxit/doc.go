// Package dixxit draws the Dixxit grid as one PNG (DIXXIT-SPEC §8, X8):
// the nine pictures in a 3×3 grid, each square numbered 1–9, every finger
// down shown with its guesser's name and, while the target is not found,
// the square crossed out; a found square framed in green; and, in the
// active player's private view only, the target framed in gold; and the
// final scoreboard, each player's cards as small pictures (§4).
//
// The pictures come from a Faces function (the deck's deck.Face), so the
// package never reads the deck itself. Each picture is scaled to its
// square and quantised once per Renderer, then kept: a grid is tile copies
// and one PNG encoding. Pictures are quantised to a palette of the
// package's own (a colour cube, greys and the table's colours), since the
// raster core's palette is made for DIX's cards.
//
// What is drawn depends only on the Grid it is given: GridOf builds the
// public grid from a view that holds no target (X11), and the same public
// grid gives the same bytes whatever the target.
//
// The only words drawn are the names the caller passes. It depends on the
// rules (engine/dixxit), the raster core (package picture), the standard
// library and golang.org/x/image: never on Discord, the bot, the store,
// locales or the clock. A Renderer is safe for concurrent use.
package dixxit
