package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The stdio transport: newline-delimited JSON-RPC messages on a reader
// and a writer, as the SDK's IOTransport reads and writes them, but no
// single message ends the session. The SDK's reader ends the connection
// at the first message it cannot decode (over its 16 MiB frame limit,
// nested deeper than the 1,000 levels its decoder takes, not JSON, not a
// JSON-RPC message), and with it `dynamoemu mcp` and the tables it holds
// in memory; the HTTP endpoint answers such a request 400 (413 over the
// SDK's 4 MiB) and serves the next. So here a gate reads each line
// first: a line over MaxMessageBytes (its bytes read and dropped, never
// held past the limit), not JSON, nested deeper than MaxMessageDepth, a
// batch (JSON-RPC batching is gone from MCP since 2025-06-18, and the
// SDK ends a session that sends one after negotiating that version) or
// not a JSON-RPC message is answered with a JSON-RPC error, with the
// request's id where the line has one (so the client's call fails at
// once instead of waiting for its timeout; idFinder) and null where it
// has not, logged, and skipped; the SDK reads only lines it decodes.
// The MCP specification's stdio transport delimits messages by newlines
// and forbids newlines inside one, so a line is a message.
//
// Every request read is answered: at the end of in, the gate hands the
// SDK its end only once each request it passed on has been answered
// (calls), since the SDK cancels the requests still in flight when its
// reader ends, and the session with them, writing nothing for them. A
// client that writes one request and closes its end of the pipe (printf
// ... | dynamoemu mcp) was answered about half the time, the other half
// not at all. The answers of calls handled at once may come in any
// order, as JSON-RPC allows; each comes before the process exits.

// MaxMessageBytes is the largest message the stdio transport reads, its
// line end aside: the SDK's own frame limit (sdk.DefaultMaxLineLength,
// 16 MiB).
const MaxMessageBytes = sdk.DefaultMaxLineLength

// MaxMessageDepth is how deep a message's objects and arrays may nest:
// the SDK's decoder refuses more (internal/json's defaultMaxDepth).
const MaxMessageDepth = 1000

// StdioTransport returns the transport of a session over in and out
// (stdin and stdout), which survives any single message, logging each
// one it refuses to log.
func StdioTransport(in io.Reader, out io.Writer, log *slog.Logger) sdk.Transport {
	w := &lockedWriter{w: out, track: true}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &gate{in: bufio.NewReaderSize(in, 64<<10), out: w, log: log, max: MaxMessageBytes}
	return &sdk.IOTransport{Reader: g, Writer: w, MaxLineLength: -1} // the gate bounds each message
}

// lockedWriter serializes whole messages to w: the gate's errors and the
// SDK's answers (each one Write). It keeps the ids of the calls passed
// on to the SDK and not yet answered (open), so that the end of in
// waits for their answers (gate.Read).
type lockedWriter struct {
	mu       sync.Mutex
	w        io.Writer
	open     map[any]bool // the calls' ids (jsonrpc.ID.Raw) not yet answered; made with the first
	answered *sync.Cond   // signalled when an answer is written, or writing fails; made with open
	failed   bool         // a write failed: no answer is coming
	track    bool         // keep open: a session's (StdioTransport), whose answers come
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if len(l.open) > 0 {
		if err != nil {
			l.failed = true
		} else if msg, derr := jsonrpc.DecodeMessage(bytes.TrimSpace(p)); derr == nil {
			if r, ok := msg.(*jsonrpc.Response); ok {
				delete(l.open, r.ID.Raw())
			}
		}
		l.answered.Broadcast()
	}
	return n, err
}

// opened notes a call passed on to the SDK, whose answer the end of in
// waits for.
func (l *lockedWriter) opened(msg jsonrpc.Message) {
	if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() && l.track {
		l.mu.Lock()
		if l.open == nil {
			l.open, l.answered = map[any]bool{}, sync.NewCond(&l.mu)
		}
		l.open[r.ID.Raw()] = true
		l.mu.Unlock()
	}
}

// drained waits until every call passed on has been answered (or a
// write has failed, when none will be).
func (l *lockedWriter) drained() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.open) > 0 && !l.failed {
		l.answered.Wait()
	}
}

// Close does nothing: the process's stdout outlives the session.
func (l *lockedWriter) Close() error { return nil }

// gate is the reader the SDK reads messages from: the lines of in that
// it decodes, each with its line end.
type gate struct {
	in      *bufio.Reader
	out     *lockedWriter
	log     *slog.Logger
	max     int
	buf     []byte   // the line being read
	ids     idFinder // the id of a line over the limit, found as it is dropped
	pending []byte   // what is left of the line being passed on
	err     error    // in's error, returned once the lines before it are passed on
}

// Close does nothing: stdin is the process's.
func (g *gate) Close() error { return nil }

func (g *gate) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.err != nil {
			g.out.drained() // the SDK cancels the calls in flight at the end
			return 0, g.err
		}
		g.pending = g.next()
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// next reads a line and returns it, trimmed and with "\n", when the SDK
// decodes it; else it answers the line and returns nil. At the end of
// in (or its error) it sets g.err.
func (g *gate) next() []byte {
	if cap(g.buf) > 1<<20 {
		g.buf = nil // a large message's buffer is not kept for the small ones after it
	}
	line, over, err := g.readLine()
	if err != nil {
		g.err = err
	}
	msg := bytes.TrimSpace(line)
	switch {
	case over:
		g.refuse(g.ids.id(), jsonrpc.CodeParseError,
			fmt.Sprintf("the message is over %d bytes, the server's limit: it was not read", g.max))
	case len(msg) == 0:
	case tooDeep(msg, MaxMessageDepth):
		// Before json.Valid, which refuses text nested deeper than
		// encoding/json's own 10,000 levels as not JSON. A Parse error
		// (-32700) is JSON-RPC 2.0's code for "an error occurred on the
		// server while parsing the JSON text"
		// (https://www.jsonrpc.org/specification#error_object).
		g.refuse(idOf(msg), jsonrpc.CodeParseError,
			fmt.Sprintf("the message nests deeper than %d levels, the server's limit", MaxMessageDepth))
	case !json.Valid(msg):
		g.refuse(idOf(msg), jsonrpc.CodeParseError, "the message is not JSON")
	case msg[0] == '[':
		g.refuse(idOf(msg), jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not taken (MCP dropped them in 2025-06-18): send one message a line")
	default:
		m, err := jsonrpc.DecodeMessage(msg)
		if err != nil {
			g.refuse(idOf(msg), jsonrpc.CodeInvalidRequest, "the message is not a JSON-RPC 2.0 request, notification or response: "+err.Error())
			return nil
		}
		g.out.opened(m)
		return append(msg, '\n') // msg is in g.buf, which has the room of its line end
	}
	return nil
}

// readLine reads the next line of in into g.buf. A line of more than
// g.max bytes, its line end aside, is over: g.buf holds at most its
// first g.max and two bytes, the rest is read and dropped, and g.ids
// has looked through all of it for the id.
func (g *gate) readLine() (line []byte, over bool, err error) {
	g.buf = g.buf[:0]
	for {
		frag, err := g.in.ReadSlice('\n')
		switch {
		case over:
			g.ids.feed(frag)
		case len(g.buf)+len(frag) > g.max+2: // +2: room for "\r\n"
			over = true
			g.ids = idFinder{}
			g.ids.feed(g.buf)
			g.ids.feed(frag)
		default:
			g.buf = append(g.buf, frag...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !over && len(bytes.TrimSpace(g.buf)) > g.max { // the line end was not "\n" or "\r\n"
			over = true
			g.ids = idFinder{}
			g.ids.feed(g.buf)
		}
		return g.buf, over, err
	}
}

// refuse answers a line the SDK would not read with a JSON-RPC error of
// code and message, with id (null when the line gives none), and logs
// it.
func (g *gate) refuse(id json.RawMessage, code int64, msg string) {
	g.log.Warn("MCP: refused a message on stdin", "reason", msg, "id", string(id))
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg}})
	if _, err := g.out.Write(append(b, '\n')); err != nil {
		g.err = err
	}
}

// tooDeep reports whether the objects and arrays of the JSON text b nest
// deeper than limit.
func tooDeep(b []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// idOf returns the "id" member of the JSON object b, a string or a
// number, as JSON; "null" when it has none (or is no object).
func idOf(b []byte) json.RawMessage {
	var f idFinder
	f.feed(b)
	return f.id()
}

// maxIDBytes bounds the id a refusal echoes: a longer one is no
// client's (they count their requests), and null is answered.
const maxIDBytes = 256

// idFinder finds the "id" member of a JSON object fed to it in pieces
// (a line the gate drops as it reads it, over the size limit), byte by
// byte, holding nothing but the id: a client may write it first (the Go
// SDK) or last, after params of any size (the TypeScript SDK), and the
// client's call fails at once only when its id comes back. A member of
// the top-level object named exactly "id" counts, however deep or
// large the members before it; escapes in a name are not decoded.
type idFinder struct {
	started, object bool // the first byte that is not blank was seen; it was '{'
	depth           int
	inString, esc   bool
	nameNext        bool   // at depth 1, the next string is a member's name
	inName          bool   // reading a name at depth 1
	name            []byte // the name read, up to 3 bytes ("id" and one more)
	isID            bool   // the name read was "id": its value comes after ':'
	valueNext       bool   // the id's value is the next token
	inValue         bool   // reading the id's value (a string, or a number when not inString)
	value           []byte
	found           bool
}

func (f *idFinder) feed(b []byte) {
	for _, c := range b {
		if f.found {
			return
		}
		f.step(c)
	}
}

// step reads byte c: the first byte that is not blank says whether
// there is an object to look in; then a byte of a string, of the id's
// number, or of the object's structure.
func (f *idFinder) step(c byte) {
	if !f.started {
		if jsonBlank(c) {
			return
		}
		f.started, f.object = true, c == '{'
	}
	switch {
	case !f.object:
	case f.inString:
		f.stringByte(c)
	case f.inValue:
		f.numberByte(c)
	default:
		if f.valueNext && !jsonBlank(c) {
			f.valueNext = false
			if f.startValue(c) {
				return
			}
		}
		f.structByte(c)
	}
}

// jsonBlank reports whether c is JSON's white space.
func jsonBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// stringByte reads c inside a string: a member's name at depth 1 (its
// first 3 bytes kept, to tell "id"), the id's value, or any other
// string, passed over.
func (f *idFinder) stringByte(c byte) {
	switch {
	case f.esc:
		f.esc = false
	case c == '\\':
		f.esc = true
	case c == '"':
		f.inString = false
	}
	switch {
	case f.inName && f.inString:
		if len(f.name) < 3 {
			f.name = append(f.name, c)
		}
	case f.inName:
		f.inName, f.isID = false, string(f.name) == "id"
	case f.inValue:
		f.keep(c)
		if !f.inString {
			f.found = true
		}
	}
}

// numberByte reads c in the id's value when it is a number: the first
// byte that is no number's ends it.
func (f *idFinder) numberByte(c byte) {
	if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
		f.keep(c)
		return
	}
	f.found = true
}

// startValue begins the id's value at c, the first byte after its ':'
// that is not blank, when c starts a string or a number; it reports
// whether it did (any other value is no id a client sends).
func (f *idFinder) startValue(c byte) bool {
	if c != '"' && c != '-' && (c < '0' || c > '9') {
		return false
	}
	f.inValue = true
	f.keep(c)
	f.inString = c == '"'
	return true
}

// structByte reads c outside strings: it tracks the depth, where a
// member's name comes next at depth 1, and the ':' after the name "id".
func (f *idFinder) structByte(c byte) {
	switch c {
	case '"':
		f.inString = true
		if f.depth == 1 && f.nameNext {
			f.nameNext, f.inName, f.name = false, true, f.name[:0]
		}
	case '{', '[':
		f.depth++
		f.nameNext = f.depth == 1
	case '}', ']':
		f.depth--
	case ',':
		f.nameNext = f.depth == 1
	case ':':
		if f.depth == 1 && f.isID {
			f.isID, f.valueNext = false, true
		}
	}
}

// keep adds c to the id's value, which is not kept past maxIDBytes.
func (f *idFinder) keep(c byte) {
	if len(f.value) <= maxIDBytes {
		f.value = append(f.value, c)
	}
}

// id is the id found, or null.
func (f *idFinder) id() json.RawMessage {
	if !f.inValue || len(f.value) > maxIDBytes || f.inString || !json.Valid(f.value) { // "-" or "1e" in a line that is no JSON
		return json.RawMessage("null")
	}
	return json.RawMessage(f.value)
}
