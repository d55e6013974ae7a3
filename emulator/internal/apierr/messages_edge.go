package apierr

// Messages of the HTTP edge and of the error classes raised outside any
// operation.

// MsgInternal is InternalServerError's message.
const msgInternal = "Internal server error"

// msgNoSpace is the 500 of a write the data directory's disk had no room
// for (a dynamoemu condition: AWS has no disk of yours to fill).
const msgNoSpace = "Internal server error: no space left on the device holding the data directory (-dbPath)"

// The edge's own refusals (hosts.go, httpedge/adminguard.go): not AWS answers.
const (
	MsgHostRefused      = "dynamoemu does not answer requests for Host %q: it answers localhost, IP addresses and the names given with -allowHost, so that a web page cannot reach it through DNS rebinding; %s."
	MsgHostAllowHint    = "start dynamoemu with -allowHost %s (emulator.Options.AllowHosts) to allow this name"
	MsgHostFormHint     = "send a Host header of the form name[:port]"
	MsgAdminOrigin      = "dynamoemu's admin endpoints do not answer web pages of origin %q: they answer the server's own pages (the console) and loopback origins; allow the origin with -cors (emulator.Options.CORSOrigins) to let its pages use them."
	MsgAdminContentType = "%s %s needs the header Content-Type: application/json (a web page cannot send that to another site without asking first)."
)

// MsgOperationNotImplemented: an operation of DynamoDB's API the emulator
// lacks (UnknownOperationException, as AWS answers unknown names; the
// emulator's own wording, so that a gap is told from a typo).
const MsgOperationNotImplemented = "An unknown operation was requested: the emulator does not implement %s yet."
