package capture

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// Writer writes a capture: the header first, then each exchange on a
// line, numbered in the order written. It is safe for concurrent use:
// a proxy's requests arrive at once.
type Writer struct {
	mu  sync.Mutex // guards bw, enc, seq
	bw  *bufio.Writer
	enc *json.Encoder
	seq int
}

// NewWriter writes h (its Capture and Version set to this format's) to w
// and returns the writer of the exchanges that follow.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	h.Capture, h.Version = Name, Version
	if err := enc.Encode(h); err != nil {
		return nil, err
	}
	return &Writer{bw: bw, enc: enc}, bw.Flush()
}

// Write writes e as the next exchange, its Seq set to its place, and
// flushes it: a capture cut short by a crash holds every exchange
// answered before it. It returns the seq written.
func (w *Writer) Write(e Exchange) (int, error) {
	if !json.Valid(e.Request) || !json.Valid(e.Response) {
		return 0, fmt.Errorf("capture: exchange %s: request or response is not JSON", e.Target)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	e.Seq = w.seq
	if err := w.enc.Encode(e); err != nil {
		w.seq--
		return 0, err
	}
	return e.Seq, w.bw.Flush()
}
