package emulator

// What one client can make the emulator hold, and how it lets go:
//
//   - request bodies grow as their bytes arrive (the request path's
//     readBody, emulator/internal/apiserve): a
//     Content-Length alone reserves at most initialBodyBytes, and a body
//     that arrives as announced ends in a buffer of its size; a
//     transaction far over its 100 actions keeps only its first actions
//     as it arrives (service.Operation.ListCut);
//   - placeholder maps over AWS's 2 MB are refused after a scan that
//     keeps nothing (internal/wire), so decoding never costs a map
//     entry per placeholder of a huge request;
//   - ClientRequestTokens keep a fingerprint and a replay's answer, at most
//     Options.IdempotencyBytes in all, forgotten as the clock passes their
//     window (internal/service);
//   - at most Options.MaxInFlight requests are served at once; the next
//     gets AWS's ThrottlingException, which the SDKs retry with back-off,
//     instead of queueing without bound. A request counts once its body
//     has arrived: bodies still arriving hold only their bytes so far and
//     a goroutine, until the server's read timeout cuts them off, so
//     clients trickling bodies never take the slots of requests ready to
//     be served;
//   - access keys are letters and digits, at most 128 of them (internal/sigv4/credential.go), and
//     a namespace is created by the first table, not by a read
//     (internal/service);
//   - after DeleteTable of a large table the freed heap is handed back to
//     the operating system at once (apiserve.Releaser);
//   - the request bodies read or served at once hold at most
//     Options.MaxRequestBytesInFlight bytes, and small ones a share
//     beside it; a body is charged what its sender has proven, and one
//     that arrives slower than the floor rate is cut off, its bytes
//     released (apiserve/budget.go, apiserve/pace.go);
//   - the HTTP server (httpserver.go) bounds headers and cuts off slow or
//     silent connections.

// namespaceCount is the number of namespaces created (for tests and the
// soak program's reports).
func (e *Emulator) namespaceCount() int {
	return e.svc.NamespaceCount()
}
