package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// stdioPeer is a client of a server on StdioTransport, writing and
// reading the protocol's lines itself, as a client's transport does.
type stdioPeer struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

// startStdio serves a new server over StdioTransport on pipes.
func startStdio(t *testing.T) *stdioPeer {
	t.Helper()
	emu, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	srv, err := New(emu, Options{})
	require.NoError(t, err)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPeer{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	go func() {
		err := srv.Run(context.Background(), StdioTransport(inR, outW, nil))
		outW.Close()
		p.done <- err
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

// send writes one message line.
func (p *stdioPeer) send(line string) {
	p.t.Helper()
	_, err := io.WriteString(p.in, line+"\n")
	require.NoError(p.t, err)
}

// answer is a JSON-RPC response as a client reads it.
type answer struct {
	ID     json.RawMessage
	Result json.RawMessage
	Error  *jsonrpc.Error
}

// recv reads the next line the server writes.
func (p *stdioPeer) recv() answer {
	p.t.Helper()
	type line struct {
		b   []byte
		err error
	}
	got := make(chan line, 1)
	go func() {
		b, err := p.out.ReadBytes('\n')
		got <- line{b, err}
	}()
	select {
	case l := <-got:
		require.NoError(p.t, l.err, "the server ended its output")
		var a answer
		require.NoError(p.t, json.Unmarshal(l.b, &a), "%s", l.b)
		return a
	case err := <-p.done:
		p.t.Fatalf("the server ended: %v", err)
	case <-time.After(hangBound):
		p.t.Fatal("no answer")
	}
	return answer{}
}

// hangBound bounds a wait that only catches a hang.
const hangBound = 2 * time.Minute

// deepCall is a tools/call of list_tables whose message nests depth
// levels in all: its arguments nest depth-3 objects deep, after the
// message, params and arguments; with idLast the id is the message's
// last member, after the params.
func deepCall(id, depth int, idLast bool) string {
	n := depth - 3
	args := strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
	params := `"params":{"name":"list_tables","arguments":{"x":` + args + `}}`
	if idLast {
		return `{"jsonrpc":"2.0","method":"tools/call",` + params + `,"id":` + fmt.Sprint(id) + `}`
	}
	return `{"jsonrpc":"2.0","id":` + fmt.Sprint(id) + `,"method":"tools/call",` + params + `}`
}

// TestStdioSurvivesAnyMessage: on stdio, a message the SDK cannot decode
// (over 16 MiB: 20 MB; nested 1,001 or 100,000 levels deep, which
// encoding/json alone would call not JSON; not JSON; a batch; not
// JSON-RPC) is answered with a JSON-RPC error carrying the request's id
// when the message gives it (null when not), and the server goes on: a
// tools/list after each is answered. A message 1,000 levels deep is the
// server's to answer, not refused.
func TestStdioSurvivesAnyMessage(t *testing.T) {
	p := startStdio(t)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	require.Nil(t, p.recv().Error)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	require.True(t, tooDeep([]byte(deepCall(2, 1001, false)), MaxMessageDepth))
	require.False(t, tooDeep([]byte(deepCall(2, 1000, false)), MaxMessageDepth))
	huge := `{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"put_item","arguments":{"TableName":"t","Item":{"pk":{"S":"` +
		strings.Repeat("x", 20_000_000) + `"}}}}}`
	list := 100
	for _, tc := range []struct {
		name, line string
		id         string // the error's id, as JSON
		code       int64
		msg        string
	}{
		{"1,001 levels", deepCall(20, 1001, false), "20", jsonrpc.CodeParseError, "nests deeper than 1000 levels"},
		{"1,001 levels, the id last", deepCall(21, 1001, true), "21", jsonrpc.CodeParseError, "nests deeper than 1000 levels"},
		{"100,000 levels", deepCall(22, 100_000, false), "22", jsonrpc.CodeParseError, "nests deeper than 1000 levels"},
		{"100,000 levels, never closed", strings.Repeat("[", 100_000), "null", jsonrpc.CodeParseError, "nests deeper than 1000 levels"},
		{"20 MB", huge, "30", jsonrpc.CodeParseError, "over 16777216 bytes"},
		{"20 MB, the id last", strings.Replace(huge, `"id":30,`, "", 1)[:len(huge)-len(`"id":30,`)-1] + `,"id":"last-31"}`, `"last-31"`,
			jsonrpc.CodeParseError, "over 16777216 bytes"},
		{"not JSON, its id read", `{"jsonrpc":"2.0","id":40,`, "40", jsonrpc.CodeParseError, "not JSON"},
		{"not JSON", `hello`, "null", jsonrpc.CodeParseError, "not JSON"},
		{"a batch", `[{"jsonrpc":"2.0","id":41,"method":"tools/list"}]`, "null", jsonrpc.CodeInvalidRequest, "batches"},
		{"JSON-RPC 1.0", `{"jsonrpc":"1.0","id":"x-42","method":"tools/list"}`, `"x-42"`, jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0"},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{"n":43},"method":"tools/list"}`, "null", jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0"},
		{"a number", `43`, "null", jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0"},
	} {
		p.send(tc.line)
		a := p.recv()
		require.NotNil(t, a.Error, tc.name)
		require.Equal(t, tc.id, string(a.ID), tc.name)
		require.Equal(t, tc.code, a.Error.Code, tc.name)
		require.Contains(t, a.Error.Message, tc.msg, tc.name)

		list++
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, list))
		a = p.recv()
		require.Equal(t, fmt.Sprint(list), string(a.ID), "after %s", tc.name)
		require.Nil(t, a.Error, "after %s", tc.name)
		require.Contains(t, string(a.Result), `"list_tables"`, "after %s", tc.name)
	}

	p.send(deepCall(50, 1000, false))
	a := p.recv()
	require.Equal(t, "50", string(a.ID))
	if a.Error != nil {
		require.NotContains(t, a.Error.Message, "server's limit", "1,000 levels are the SDK's to decode")
	}
	p.send("") // blank lines are no messages
	p.send(`{"jsonrpc":"2.0","id":51,"method":"tools/list"}`)
	require.Equal(t, "51", string(p.recv().ID))

	require.NoError(t, p.in.Close())
	select {
	case err := <-p.done:
		require.True(t, err == nil || err == io.EOF, "the server ended with %v", err)
	case <-time.After(hangBound):
		t.Fatal("the server did not end when its input did")
	}
}

// TestIDOf: the id of a refused message is its top-level object's "id",
// first or last, after members however deep; only a string or a number
// is taken; fed in pieces of any size, the answer is the same.
func TestIDOf(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"x"}`, "7"},
		{`  {"jsonrpc":"2.0","id" : "abc","method":"x"}`, `"abc"`},
		{`{"params":{"a":[1,{"b":[]}]},"id":-3}`, "-3"},
		{`{"params":{"id":9},"id":3}`, "3"},
		{`{"a":"\"id\":4","id":5}`, "5"},
		{`{"id":"x\"y}"}`, `"x\"y}"`},
		{`{"jsonrpc":"2.0","id":7.5e1`, "7.5e1"},
		{`{"jsonrpc":"2.0","method":"x","params":{"a":"cut short`, "null"},
		{`{"id":"cut short`, "null"},
		{`{"i\u0064":1}`, "null"},
		{`{"idx":1,"xid":2}`, "null"},
		{`{"id":null}`, "null"},
		{`{"id":{"a":1},"b":2}`, "null"},
		{`{"id":true}`, "null"},
		{`{"id":"` + strings.Repeat("x", 300) + `"}`, "null"},
		{`[{"id":1}]`, "null"},
		{`not json`, "null"},
		{``, "null"},
	} {
		require.Equal(t, tc.want, string(idOf([]byte(tc.in))), tc.in)
		for _, size := range []int{1, 2, 3, 7} {
			var f idFinder
			for b := []byte(tc.in); len(b) > 0; b = b[min(size, len(b)):] {
				f.feed(b[:min(size, len(b))])
			}
			require.Equal(t, tc.want, string(f.id()), "%s in pieces of %d", tc.in, size)
		}
	}
}

// FuzzStdioGate: whatever comes in on stdin, the gate passes on only
// lines the SDK decodes (standard JSON, JSON-RPC, no deeper than its
// limit), one message a line, and answers every other non-blank line
// with one JSON-RPC error.
func FuzzStdioGate(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n" + `{"jsonrpc":"2.0","id":` + "\n[1]\n"))
	f.Add([]byte(deepCall(3, 1001, true) + "\r\n\n  \n" + `{"jsonrpc":"2.0","method":"n"}`))
	f.Add([]byte(`{"a":"\"}"}` + "\n" + `"x"` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		g := &gate{in: bufio.NewReaderSize(bytes.NewReader(data), 16), out: &lockedWriter{w: &out}, log: slog.New(slog.DiscardHandler), max: 256}
		passed, err := io.ReadAll(g)
		require.NoError(t, err)
		for _, line := range bytes.SplitAfter(passed, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			require.Equal(t, byte('\n'), line[len(line)-1])
			msg := line[:len(line)-1]
			require.NotContains(t, string(msg), "\n")
			require.True(t, json.Valid(msg), "%q", msg)
			_, err := jsonrpc.DecodeMessage(msg)
			require.NoError(t, err, "%q", msg)
			require.LessOrEqual(t, len(msg), g.max)
		}
		blank := 0
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				blank++
			}
		}
		errs := bytes.Count(out.Bytes(), []byte("\n"))
		passedN := bytes.Count(passed, []byte("\n"))
		lines := bytes.Count(data, []byte("\n")) + 1
		require.Equal(t, lines-blank, passedN+errs, "each non-blank line is passed on or answered")
		for _, l := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			var a answer
			require.NoError(t, json.Unmarshal(l, &a), "%s", l)
			require.NotNil(t, a.Error, "%s", l)
		}
	})
}

// FuzzIDFinder: the id found in a line is the same fed whole or in
// pieces, and is null or a JSON string or number.
func FuzzIDFinder(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":7,"method":"x"}`), uint8(3))
	f.Add([]byte(`{"a":"\"id\":4","params":{"id":9},"id":"x\"y"}`), uint8(1))
	f.Add([]byte(`{"id":-1.5e+3}`), uint8(2))
	f.Add([]byte(`{"id":-}`), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		whole := idOf(data)
		var g idFinder
		n := int(size%16) + 1
		for b := data; len(b) > 0; b = b[min(n, len(b)):] {
			g.feed(b[:min(n, len(b))])
		}
		require.Equal(t, string(whole), string(g.id()))
		if s := string(whole); s != "null" {
			require.LessOrEqual(t, len(s), maxIDBytes)
			require.True(t, s[0] == '"' || s[0] == '-' || s[0] >= '0' && s[0] <= '9', s)
			require.True(t, json.Valid(whole), s)
		}
	})
}

// TestHTTPSurvivesAnyMessage: over HTTP each message is a request of its
// own: one nested 1,001 levels deep is 400, one of 20 MB (over the 4 MiB
// a body may have) 413, one announced as 2 GB 413 from its head with one
// byte of it sent, and the session's next call is served.
func TestHTTPSurvivesAnyMessage(t *testing.T) {
	f := newFixture(t, "http", Options{})
	post := func(body string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := bearerClient(testToken).Do(req)
		require.NoError(t, err, "an answer, not a reset")
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	huge := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"put_item","arguments":{"TableName":"t","Item":{"pk":{"S":"` +
		strings.Repeat("x", 20_000_000) + `"}}}}}`
	announced := func() int {
		t.Helper()
		u, err := url.Parse(f.url)
		require.NoError(t, err)
		c, err := net.Dial("tcp", u.Host)
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, c.SetDeadline(time.Now().Add(hangBound)))
		_, err = io.WriteString(c, "POST "+u.Path+" HTTP/1.1\r\nHost: "+u.Host+"\r\nAuthorization: Bearer "+testToken+
			"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 2147483648\r\n\r\n{")
		require.NoError(t, err)
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err, "no answer from the head")
		res.Body.Close()
		return res.StatusCode
	}
	for _, tc := range []struct {
		name string
		send func() int
		want int
	}{
		{"1,001 levels", func() int { return post(deepCall(2, 1001, false)) }, http.StatusBadRequest},
		{"20 MB", func() int { return post(huge) }, http.StatusRequestEntityTooLarge},
		{"2 GB announced", announced, http.StatusRequestEntityTooLarge},
	} {
		require.Equal(t, tc.want, tc.send(), tc.name)
		res, err := f.session.ListTools(context.Background(), nil)
		require.NoError(t, err, "after %s", tc.name)
		require.NotEmpty(t, res.Tools, "after %s", tc.name)
	}
}

// TestHTTPAnswersAHalfClosedClient: a client that sends its request and
// closes its side of the connection (as `curl` with a body piped, or a
// shell's /dev/tcp, may) is still answered, every time: net/http ends a
// request's context when it reads the end of the connection, which
// cancelled the call before it was answered.
func TestHTTPAnswersAHalfClosedClient(t *testing.T) {
	f := newFixture(t, "http", Options{})
	u, err := url.Parse(f.url)
	require.NoError(t, err)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"half","version":"1"}}}`
	calls := map[string]string{
		"initialize": initialize,
		"tools/list": `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	}
	for name, body := range calls {
		for run := range 20 {
			c, err := net.Dial("tcp", u.Host)
			require.NoError(t, err)
			require.NoError(t, c.SetDeadline(time.Now().Add(hangBound)))
			_, err = fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
				"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s", u.Path, u.Host, testToken, len(body), body)
			require.NoError(t, err)
			require.NoError(t, c.(*net.TCPConn).CloseWrite())
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			require.NoError(t, err, "%s, run %d: no answer", name, run)
			out, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			res.Body.Close()
			c.Close()
			require.Equal(t, http.StatusOK, res.StatusCode, "%s, run %d: %s", name, run, out)
			require.Contains(t, string(out), `"result"`, "%s, run %d", name, run)
		}
	}
}
