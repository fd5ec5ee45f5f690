package qwixx

import "github.com/dixgame/dixbot/picture"

// codes are the Huffman codes of every board's picture, fitted to the
// symbols of boards of whole games (boardCounts, written by
// TestCodesFitTheBoards with -update).
var codes = picture.NewCodes(&boardCounts)
