//go:build wasip1

package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"unsafe"
)

// The reactor's exports (GOOS=wasip1, -buildmode=c-shared), in the order
// the host calls them (doc.go).

var (
	eng    *engine // made by dynamoemu_open
	in     []byte  // the request frame the host writes
	answer []byte  // the last answer
)

// main is not run in a reactor; the package needs one.
func main() {}

// open makes the engine from the WASI arguments; 0 is success, anything
// else an error written to stderr.
//
//go:wasmexport dynamoemu_open
func open() int32 {
	var err error
	if eng, err = newEngine(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// As on the server: its ticker's turns come at the end of calls.
	go eng.emu.Clock().RunTTLSweeper(context.Background(), eng.ttlSweep)
	return 0
}

// buffer returns where the host writes a request frame of n bytes.
//
//go:wasmexport dynamoemu_buffer
func buffer(n int32) uint32 {
	if n <= 0 {
		in = in[:0]
		return 0
	}
	if cap(in) < int(n) || cap(in) > maxKept && int(n) <= maxKept {
		in = make([]byte, n)
	}
	in = in[:n]
	return uint32(uintptr(unsafe.Pointer(&in[0])))
}

// serve answers the frame in the buffer and returns the answer's length.
//
//go:wasmexport dynamoemu_serve
func serve() int32 {
	if cap(answer) > maxKept {
		answer = nil // a rare large answer does not stay
	}
	answer = eng.serve(in, answer[:0])
	// Go runs only inside a call: give the goroutines whose timers are
	// due (the emulator's janitors) their turn before returning.
	runtime.Gosched()
	return int32(len(answer))
}

// answerAt returns where the last answer lies.
//
//go:wasmexport dynamoemu_answer
func answerAt() uint32 {
	if len(answer) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(&answer[0])))
}

// maxKept is the largest frame buffer kept between calls.
const maxKept = 1 << 20
