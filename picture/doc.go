// Package picture is the raster core the games' drawings share: a paletted
// canvas, tiles (small images rasterised once, quantised to the palette and
// cached), the embedded Go fonts and their text tiles, a vector pen for
// shapes, the fixed palette and the PNG encoding. Each game's drawings live
// in a package of their own below it (picture/dix for DIX).
//
// Rasterising uses golang.org/x/image with the embedded Go fonts: no system
// fonts, no cgo. A picture is an 8-bit paletted image, which keeps both the
// encoding time and the PNG small.
//
// It depends only on the standard library and golang.org/x/image: never on a
// game, Discord, the bot, the store, locales, I/O beyond the bytes it
// returns, logging or the clock. Every exported function is safe for
// concurrent use; a Canvas and a Pen belong to one drawing at a time.
package picture
