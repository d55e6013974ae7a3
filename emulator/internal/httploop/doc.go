// Package httploop is the emulator's own HTTP/1.1 plumbing, under the Go
// API: what the connection loop (emulator's fastloop*.go) needs that does
// not know the emulator. Today that is the request-head parser: HeadEnd
// finds a head's end in the read buffer and ParseHead reads the fields the
// loop serves an API call from, or says the request is not eligible, in
// which case the connection goes to net/http. It imports nothing of the
// module, so the loop's per-request path gains no indirect call by the
// move: ParseHead was never inlined, and a call across packages costs the
// same as one inside a package.
package httploop
