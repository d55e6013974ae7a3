// Command dynamoemu-wasm is the emulator's engine built for WebAssembly,
// for the npm package's bridge (dynamoemu/wasm): @aws-sdk/client-dynamodb
// in a web page or a Node process talks to it through an SDK
// requestHandler, with no server and no native binary.
//
// It is built for WASI preview 1 as a reactor (npm/build.sh):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o dynamoemu.wasm ./cmd/dynamoemu-wasm
//
// which measured as small as the GOOS=js build and faster per call, and
// needs no glue script tied to the Go release: the bridge gives it the
// few WASI functions it calls (docs/wasm.md).
//
// # Basics
//
// The engine is emulator.New's Handler, kept in memory: no -dbPath, no
// listener. A request crosses from JavaScript as one frame of bytes,
//
//	POST /\n
//	Name: value\n        one line a header
//	\n
//	body
//
// and the answer comes back in the same shape, a status line in place of
// the request line ("200\n"). A frame is one copy each way, whatever the
// number of headers.
//
// The host calls the exports in this order: _initialize (the Go
// runtime), dynamoemu_open (the engine, from the WASI arguments), then
// for each request dynamoemu_buffer(n) for where to write an n-byte
// frame, dynamoemu_serve to answer it (it returns the answer's length)
// and dynamoemu_answer for where the answer lies, valid until the next
// call.
//
// # Options
//
// The WASI arguments after the program name take two of the server's
// flags: -sharedDb and -ttlSweepInterval (a minute by default, as on the
// server). Everything else is the in-memory emulator's default; every
// Host is answered (there is no network to defend).
//
// # Caveats
//
// Go runs only inside a call: the emulator's background goroutines (the
// TTL sweeper, the janitor of ClientRequestTokens) get their turn at the
// end of each call, so an expired item is deleted at the first call's end
// after its sweep is due.
// A call that waits on a timer (the transient states of
// -delayTransientStatuses, fault delays) holds the JavaScript thread while
// it waits; none of these is on by default.
package main
