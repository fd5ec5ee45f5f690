package workers

import (
	"testing"
	"unsafe"
)

// stackMoves reports whether the stack of a new goroutine moves (is
// copied to a larger one) while it calls 100 frames of 256 bytes deep, a
// handler's depth, after GrowStack when grow.
func stackMoves(grow bool) bool {
	moved := make(chan bool)
	go func() {
		if grow {
			GrowStack()
		}
		var here byte
		before := uintptr(unsafe.Pointer(&here))
		deep(100)
		moved <- uintptr(unsafe.Pointer(&here)) != before
	}()
	return <-moved
}

// deep calls itself depth times, each frame holding 256 bytes.
//
//go:noinline
func deep(depth int) byte {
	var frame [256]byte
	frame[depth%len(frame)] = byte(depth)
	if depth > 0 {
		frame[0] += deep(depth - 1)
	}
	return frame[0]
}

// A handler's goroutine grows its stack once, at its start: the calls
// after GrowStack fit in it, where a new goroutine's stack alone is copied.
func TestGrowStackHoldsAHandlersDepth(t *testing.T) {
	t.Parallel()
	if !stackMoves(false) {
		t.Fatal("a new goroutine's stack held 25 KB of frames without growing: the test shows nothing")
	}
	if stackMoves(true) {
		t.Error("the stack moved after GrowStack")
	}
}
