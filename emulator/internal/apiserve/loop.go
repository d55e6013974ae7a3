package apiserve

import (
	"io"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// The connection loop's side of the request path: the loop (accept, read,
// hand off, Shutdown) is httploop's (emulator/internal/httploop/loop.go);
// it calls LoopHandler.ServeLoop for each API call it reads.

// lingerTime is the most a connection closed with its request's body
// unread waits for its client to read the answer (net/http's is 500 ms).
const lingerTime = 500 * time.Millisecond

// maxDiscardBytes is the most of an unread request body the loop reads
// away to keep a connection (net/http's limit is the same, 256 KB).
const maxDiscardBytes = 256 << 10

// LoopHandler serves the connection loop's requests
// (httploop.Handler): the loop's one indirect call a request is its
// ServeLoop. Its fields are set when the emulator's Server is made.
type LoopHandler struct {
	S            *Server
	WriteTimeout time.Duration
	Version      string // the Dynamoemu-Version header's value
}

// ServeLoop answers the request whose head is in lc.Head and reports
// whether the connection stays open for another.
func (lh *LoopHandler) ServeLoop(lc *httploop.LoopConn) (keep bool) {
	s := lh.S
	h := &lc.Head
	if lc.Out == nil {
		lc.Out = AnswerBufs.Get() // apiserve/pools.go; given back by LoopConnDone
	}
	in := Request{
		Ctx:           &lc.Ctx,
		Target:        h.Target,
		Auth:          h.Auth,
		Host:          h.Host,
		Tenant:        h.Tenant,
		Branch:        h.Branch,
		ContentLength: h.ContentLength,
		Body:          &lc.Body,
		BodyHere:      h.ContentLength <= int64(lc.BR.Buffered()),
		Conn:          lc.Conn,
		ReqID:         h.ReqID,
	}
	if h.ContentEncoding != "" {
		in.ContentEncoding = []string{h.ContentEncoding}
	}
	in.RL = httpedge.NewRequestLog(in.Ctx, s.Logger)
	out := AnswerBodies.Get()
	ans := s.Serve(&in, (*out)[:0])
	lc.Ctx.Finish()
	if ans.CutOff {
		return false
	}
	keep = !h.Close && !h.HTTP10 && !lc.Stopping() && !ans.Close
	// A body the answer did not read (an error found before it): read
	// away before the answer when small, as net/http does, else close
	// after the answer.
	if keep && lc.Body.Left() > 0 {
		n, err := io.CopyN(io.Discard, &lc.Body, maxDiscardBytes+1)
		keep = err == io.EOF && n <= maxDiscardBytes
	}
	coding := ""
	if len(ans.Body) >= httploop.MinCompressed && h.AcceptEncoding != "" {
		coding = httploop.AcceptedCoding(h.AcceptEncoding)
	}
	s.LogAnswer(&in, &ans) // before the client can read the answer, as on net/http's path
	// The write deadline counts from the answer being ready, not from
	// the head: a request slow to serve is still answered.
	now := time.Now() // the write deadline's and the Date's
	lc.Conn.SetWriteDeadlineFor(now.Add(lh.WriteTimeout))
	head := httploop.Answer{Status: ans.Status, ReqID: ans.ReqID, Version: lh.Version, Now: now}
	if ans.RetryAfter {
		head.RetryAfter = RetryAfterSeconds
	}
	err := httploop.WriteLoopAnswer(lc, h, coding, &head, ans.Body, keep)
	if err != nil && httploop.IsTimeout(err) {
		s.Logger.Warn("answer cut off: write timeout (response not read)", "request_id", ans.ReqID, "remote", in.RemoteAddr(), "err", err)
	}
	if err == nil && ans.Close {
		// Its body unread, the connection closes: after a moment for the
		// client to read the answer, rather than a reset.
		lc.Conn.Linger(lingerTime)
	}
	s.Recycle(&ans, out)
	return err == nil && keep
}

// LoopConnDone gives back the connection's answer buffer.
func (lh *LoopHandler) LoopConnDone(lc *httploop.LoopConn) {
	if lc.Out != nil {
		AnswerBufs.Put(lc.Out)
		lc.Out = nil
	}
}
