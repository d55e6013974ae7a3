// Package httploop is the emulator's own HTTP/1.1 plumbing, under the Go
// API: the connection loop, which knows the emulator only as a Handler.
//
//   - The loop: Loop accepts connections, reads request heads, calls its
//     Handler's ServeLoop for each API call (the emulator answers and
//     writes), and hands any other request's connection to net/http. It
//     keeps net/http's timeouts, and Shutdown and Close end it as
//     net/http's would (loop.go, handoff.go).
//   - The request head: HeadEnd finds a head's end in the read buffer and
//     ParseHead reads the fields the loop serves an API call from, or says
//     the request is not eligible, in which case the connection goes to
//     net/http (FuzzRequestHead holds it to net/http's reading).
//   - The answer's head: StatusLine and DateLine, as net/http writes them.
//   - An API call's answer with DynamoDB's headers (x-amzn-RequestId,
//     x-amz-crc32, Server, the Content-Type of the request's JSON
//     version): WriteAnswer through net/http's ResponseWriter,
//     WriteLoopAnswer straight to the loop's connection, NewRequestID
//     (apianswer.go).
//   - The answer's coding: ResponseCoding and AcceptedCoding read
//     Accept-Encoding as DynamoDB does, and MinCompressed is the size from
//     which it compresses; Compress compresses an answer with the
//     pooled compressors (compress.go).
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
// It imports httpedge (the Host policy) and lease (the readers' pool).
// The loop's per-request path gains one indirect call by the move, the
// Handler's ServeLoop; the rest are direct calls, across a package as they
// were inside one. The net/http path (BenchmarkOps' handler) gains none.
// ConnContext calls its connection's
// SetReadDeadline through an interface, only when a watch starts or ends
// (an injected delay), never on a request that waits on nothing.
package httploop
