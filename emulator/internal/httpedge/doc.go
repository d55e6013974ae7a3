// Package httpedge holds the HTTP edge's policies that do not know the
// emulator, under the Go API:
//
//   - CORS: which web pages are answered (loopback origins, and those the
//     emulator's -cors lists) and the headers they get (cors.go).
//   - Hosts: which Host names are answered, the defence against DNS
//     rebinding (hosts.go); the emulator logs the refusals.
//   - Decompressing: a body's Content-Encoding undone as it is read, as
//     DynamoDB does, within the body's limit (decompress.go).
//   - AdminGuard and LambdaGuard: the requests the emulator's own paths
//     refuse because a web page could send them cross-site
//     (adminguard.go).
//   - RequestLog: an API request's debug line and every 500, logged once
//     it is answered (requestlog.go).
//
// It imports apierr only, for the answers it gives. Both of the
// emulator's paths (the connection loop and net/http's) call it directly:
// the move added no indirect call.
package httpedge
