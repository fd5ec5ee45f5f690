package qwixx

// EncodeSchema1 writes g in schema 1, for the tests of reading old states.
func EncodeSchema1(g *Game) []byte { return g.appendVersion(nil, 1) }
