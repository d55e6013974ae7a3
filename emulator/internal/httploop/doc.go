// Package httploop is the emulator's own HTTP/1.1 plumbing, under the Go
// API: the pieces of the connection loop (emulator's fastloop*.go) that do
// not know the emulator.
//
//   - The request head: HeadEnd finds a head's end in the read buffer and
//     ParseHead reads the fields the loop serves an API call from, or says
//     the request is not eligible, in which case the connection goes to
//     net/http (FuzzRequestHead holds it to net/http's reading).
//   - The answer's head: StatusLine and DateLine, as net/http writes them.
//   - The answer's coding: ResponseCoding and AcceptedCoding read
//     Accept-Encoding as DynamoDB does, and MinCompressed is the size from
//     which it compresses (the compressing, with its pools, is the
//     emulator's).
//   - The hand-off: Listener is the net/http Server's listener for the
//     connections the loop gives up.
//   - The connections: Conns counts a Server's connections, and Conn
//     logs the first deadline that cuts one off, with the phase it
//     bounds (the loop's, or told from net/http's timeouts).
//   - The request's context and body: ConnContext is a request's
//     context, ended when its client goes away, watched only while
//     something waits on it; Body reads the body from the connection's
//     read buffer.
//
// It imports nothing of the module. The loop's per-request path gains no
// indirect call by the move: these are direct calls, across a package as
// they were inside one. ConnContext calls its connection's
// SetReadDeadline through an interface, only when a watch starts or ends
// (an injected delay), never on a request that waits on nothing.
package httploop
