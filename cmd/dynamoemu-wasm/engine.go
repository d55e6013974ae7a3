package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// engine is one in-memory emulator answering frames (doc.go).
type engine struct {
	emu      *emulator.Emulator
	h        http.Handler
	ttlSweep time.Duration // how often expired TTL items are deleted; 0: never
}

// newEngine makes the engine the arguments (the server's flags that apply
// here: -sharedDb, -ttlSweepInterval) describe.
func newEngine(args []string) (*engine, error) {
	fs := flag.NewFlagSet("dynamoemu-wasm", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	shared := fs.Bool("sharedDb", false, "one database for every access key and region")
	sweep := fs.Duration("ttlSweepInterval", time.Minute, "how often expired TTL items are deleted (0: never)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *sweep < 0 {
		return nil, fmt.Errorf("dynamoemu-wasm: -ttlSweepInterval %v is negative", *sweep)
	}
	if fs.NArg() > 0 {
		return nil, errors.New("dynamoemu-wasm: unexpected argument " + strconv.Quote(fs.Arg(0)))
	}
	emu, err := emulator.New(emulator.Options{SharedDB: *shared, AllowHosts: []string{"*"}})
	if err != nil {
		return nil, err
	}
	return &engine{emu: emu, h: emu.Handler(), ttlSweep: *sweep}, nil
}

// errFrame is a request frame that does not parse.
var errFrame = errors.New("dynamoemu-wasm: malformed request frame")

// serve answers one request frame with a response frame appended to out.
// A frame that does not parse is answered with 400 and errFrame's text.
func (e *engine) serve(frame, out []byte) []byte {
	req, err := parseFrame(frame)
	if err != nil {
		return appendFrame(out, http.StatusBadRequest, http.Header{"Content-Type": {"text/plain"}}, []byte(err.Error()))
	}
	w := responseWriter{header: http.Header{}}
	e.h.ServeHTTP(&w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return appendFrame(out, w.status, w.header, w.body.Bytes())
}

// parseFrame turns a request frame into the http.Request the handler
// serves. The body is the frame's tail, not copied.
func parseFrame(frame []byte) (*http.Request, error) {
	line, rest, ok := bytes.Cut(frame, []byte{'\n'})
	method, target, ok2 := bytes.Cut(line, []byte{' '})
	if !ok || !ok2 || len(method) == 0 {
		return nil, errFrame
	}
	u, err := url.ParseRequestURI(string(target))
	if err != nil {
		return nil, errFrame
	}
	h := http.Header{}
	for {
		line, rest, ok = bytes.Cut(rest, []byte{'\n'})
		if !ok {
			return nil, errFrame
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok || len(name) == 0 {
			return nil, errFrame
		}
		h.Add(string(name), string(bytes.TrimSpace(value)))
	}
	// The engine answers in the clear: a compressed answer would only
	// cost a gzip on each side of the crossing.
	h.Del("Accept-Encoding")
	host := h.Get("Host")
	h.Del("Host")
	return &http.Request{
		Method:        string(method),
		URL:           u,
		RequestURI:    string(target),
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Host:          host,
		Body:          io.NopCloser(bytes.NewReader(rest)),
		ContentLength: int64(len(rest)),
		RemoteAddr:    "wasm",
	}, nil
}

// appendFrame appends a response frame: the status line, the headers, an
// empty line, the body.
func appendFrame(out []byte, status int, h http.Header, body []byte) []byte {
	out = strconv.AppendInt(out, int64(status), 10)
	out = append(out, '\n')
	for name, values := range h {
		for _, v := range values {
			out = append(out, name...)
			out = append(out, ": "...)
			out = append(out, v...)
			out = append(out, '\n')
		}
	}
	out = append(out, '\n')
	return append(out, body...)
}

// responseWriter keeps what the handler writes.
type responseWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *responseWriter) Header() http.Header { return w.header }

func (w *responseWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *responseWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(p)
}
