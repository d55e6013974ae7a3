// Package apiserve is the API's request path, under the Go API: what
// happens to a DynamoDB call (POST / with X-Amz-Target) between its
// headers being read and its answer being written, the same on
// net/http's path and the connection loop's.
//
//   - Server holds what the path needs of the emulator, set once by
//     emulator.New before the first request: the service, the keyring
//     of Options.Credentials, the logger, the body limit, the IAM
//     identities and the branches (as functions), and the path's own
//     state: the in-flight Limiter, the Budget of request bytes and the
//     Releaser. Server.Serve calls the service directly: no interface
//     call a request (Server.API, a Backend, is for tests).
//   - Request is what the path needs of a request: a few header
//     values, where it came from, its body. Answer is the status and
//     JSON body (or the error) to write, or CutOff when nobody is left
//     to answer (serve.go).
//   - The order, DynamoDB's: the credential, the operation, the bytes in
//     flight charged (budget.go: a body's first bytes, the rest as it
//     arrives, a compressed one's inflated size, the slow bodies within their share), the body read, bounded and decompressed (body.go)
//     at the floor rate's pace (pace.go: a body that falls behind, or
//     outlasts the read timeout, is answered 408 and its connection
//     closed), the signature with Credentials, the in-flight slot
//     (limits.go), then the service's Serve; a panic in an operation is
//     logged and answered with InternalServerError.
//   - LoopHandler is the connection loop's httploop.Handler: its
//     ServeLoop reads the loop's parsed head into a Request, serves it
//     and writes the answer on the connection (loop.go).
//   - The pools of request and answer bodies and of the loop's answer
//     buffers (pools.go); Recycle gives an answer's buffer back once
//     written and releases memory after large deletes.
//
// Caveats: a Server is not copied (its counters and the budget's lock
// are in it). Writing the answer (headers, request id, CRC) is
// httploop's; reading net/http's headers into a Request is the
// emulator's (server.go's serveOp), which answers CORS there too.
package apiserve
