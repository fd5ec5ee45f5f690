// Package workers runs the bot's work on goroutines whose stacks hold it:
// an interaction's handling and the work that follows it (a fold's
// write), which go deep.
package workers

// An interaction is handled in a goroutine: one discordgo starts for
// each gateway event, the HTTP server's for a request, or a Pool's. A new
// goroutine's stack is small (the runtime starts it at the average size of
// the stacks it last scanned), and the handling goes deep (the
// interaction's decoding, the store's update, the table data's decoding
// inside it): each time the stack is full the runtime copies it whole to
// one twice as large, and adjusts every frame on it. handlerStack is the
// frame GrowStack takes first, while the stack holds only a few frames,
// so that the stack grows once, cheaply, to a size the handling fits in.
// docs/PERFORMANCE.md measures it.
const handlerStack = 32 << 10

// GrowStack grows the calling goroutine's stack to hold a frame of
// handlerStack bytes beside what it holds already.
//
//go:noinline
func GrowStack() {
	var frame [handlerStack]byte
	keepFrame(frame[:])
}

// keepFrame uses b, so that the compiler keeps the frame that holds it.
//
//go:noinline
func keepFrame(b []byte) {
	if len(b) == 0 {
		panic("workers: no frame to grow the stack with")
	}
}
