package dixxit

import "github.com/dixgame/dixbot/picture"

// codes are the Huffman codes of every grid's picture, fitted to the
// symbols of grids of the deck's faces (deckCounts, written by
// TestCodesFitTheDeck): a square's art is mostly literals of a few of the
// palette's colours, which deflate's fixed codes write in 8 or 9 bits.
var codes = picture.NewCodes(&deckCounts)
