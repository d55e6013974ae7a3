package emulator

import (
	"io"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apiserve"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// The connection loop's side in the emulator: the loop (accept, read,
// hand off, Shutdown) is httploop's (emulator/internal/httploop/loop.go);
// it calls loopHandler.ServeLoop for each API call it reads.

// maxDiscardBytes is the most of an unread request body the loop reads
// away to keep a connection (net/http's limit is the same, 256 KB).
const maxDiscardBytes = 256 << 10

// loopHandler serves the connection loop's requests
// (httploop.Handler): the loop's one indirect call a request is its
// ServeLoop.
type loopHandler struct {
	e            *Emulator
	writeTimeout time.Duration
}

// ServeLoop answers the request whose head is in lc.Head and reports
// whether the connection stays open for another.
func (lh *loopHandler) ServeLoop(lc *httploop.LoopConn) (keep bool) {
	e := lh.e
	h := &lc.Head
	if lc.Out == nil {
		lc.Out = apiserve.AnswerBufs.Get() // apiserve/pools.go; given back by LoopConnDone
	}
	in := apiserve.Request{
		Ctx:           &lc.Ctx,
		Target:        h.Target,
		Auth:          h.Auth,
		Host:          h.Host,
		Tenant:        h.Tenant,
		Branch:        h.Branch,
		ContentLength: h.ContentLength,
		Body:          &lc.Body,
		Conn:          lc.Conn,
	}
	if h.ContentEncoding != "" {
		in.ContentEncoding = []string{h.ContentEncoding}
	}
	in.RL = httpedge.NewRequestLog(in.Ctx, e.log)
	out := apiserve.AnswerBodies.Get()
	ans := e.serve.Serve(&in, (*out)[:0])
	lc.Ctx.Finish()
	if ans.CutOff {
		return false
	}
	keep = !h.Close && !h.HTTP10 && !lc.Stopping()
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
	e.serve.LogAnswer(&in, &ans) // before the client can read the answer, as on net/http's path
	// The write deadline counts from the answer being ready, not from
	// the head: a request slow to serve is still answered.
	lc.Conn.SetWriteDeadlineFor(time.Now().Add(lh.writeTimeout))
	head := httploop.Answer{Status: ans.Status, ReqID: ans.ReqID, Version: versionHeader()[0]}
	if ans.RetryAfter {
		head.RetryAfter = apiserve.RetryAfterSeconds
	}
	err := httploop.WriteLoopAnswer(lc, h, coding, &head, ans.Body, keep)
	if err != nil && httploop.IsTimeout(err) {
		e.log.Warn("answer cut off: write timeout (response not read)", "request_id", ans.ReqID, "remote", in.RemoteAddr(), "err", err)
	}
	e.serve.Recycle(&ans, out)
	return err == nil && keep
}

// LoopConnDone gives back the connection's answer buffer.
func (lh *loopHandler) LoopConnDone(lc *httploop.LoopConn) {
	if lc.Out != nil {
		apiserve.AnswerBufs.Put(lc.Out)
		lc.Out = nil
	}
}
