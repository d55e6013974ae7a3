package emulator

import (
	"hash/crc32"
	"io"
	"net"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
)

// The connection loop's side in the emulator: the loop (accept, read,
// hand off, Shutdown) is httploop's (emulator/internal/httploop/loop.go);
// it calls loopHandler.ServeLoop for each API call it reads.

// writeBufferSize is the most of an answer (head and body) the loop copies
// into its answer buffer to send in one write; a larger one goes out as a
// writev of the head and the body.
const writeBufferSize = 4 << 10

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
		lc.Out = answerBufs.Get() // pools.go; given back by LoopConnDone
	}
	in := apiRequest{
		ctx:           &lc.Ctx,
		target:        h.Target,
		auth:          h.Auth,
		host:          h.Host,
		tenant:        h.Tenant,
		branch:        h.Branch,
		contentLength: h.ContentLength,
		body:          &lc.Body,
		conn:          lc.Conn,
	}
	if h.ContentEncoding != "" {
		in.contentEncoding = []string{h.ContentEncoding}
	}
	in.rl = httpedge.NewRequestLog(in.ctx, e.log)
	out := answerBodies.Get()
	ans := e.answerAPI(&in, (*out)[:0])
	lc.Ctx.Finish()
	if ans.cutOff {
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
	if len(ans.body) >= httploop.MinCompressed && h.AcceptEncoding != "" {
		coding = httploop.AcceptedCoding(h.AcceptEncoding)
	}
	e.logAPI(&in, &ans) // before the client can read the answer, as on net/http's path
	// The write deadline counts from the answer being ready, not from
	// the head: a request slow to serve is still answered.
	lc.Conn.SetWriteDeadlineFor(time.Now().Add(lh.writeTimeout))
	err := writeAnswer(lc, h, coding, &ans, keep)
	if err != nil && httploop.IsTimeout(err) {
		e.log.Warn("answer cut off: write timeout (response not read)", "request_id", ans.reqID, "remote", in.remoteAddr(), "err", err)
	}
	e.recycleAPI(&ans, out)
	return err == nil && keep
}

// LoopConnDone gives back the connection's answer buffer.
func (lh *loopHandler) LoopConnDone(lc *httploop.LoopConn) {
	if lc.Out != nil {
		answerBufs.Put(lc.Out)
		lc.Out = nil
	}
}

// writeAnswer writes the loop's answer to one request and
// flushes it: the status line and the headers net/http's path writes
// (writeResponseCoded, plus Date and, when the connection closes after an
// HTTP/1.1 request, Connection: close), then the body, compressed with
// coding when it is not "".
//
// Head and body leave in one system call: copied together into the
// connection's answer buffer when they fit in writeBufferSize, else as one
// writev of the head and the body. Syscalls are most of what a request
// costs the server here (40% in a CPU profile at c=8).
func writeAnswer(lc *httploop.LoopConn, h *httploop.Head, coding string, ans *apiAnswer, keep bool) error {
	body := ans.body
	if coding != "" {
		body = httploop.Compress(coding, body)
	}
	head := appendAnswerHead((*lc.Out)[:0], h, coding, ans, body, keep)
	if len(head)+len(body) <= writeBufferSize {
		*lc.Out = append(head, body...)
		_, err := lc.Conn.Write(*lc.Out)
		return err
	}
	*lc.Out = head
	return lc.Conn.WriteBuffers(net.Buffers{head, body})
}

// appendAnswerHead appends the status line and headers of an answer with
// body to b, up to and including the blank line.
func appendAnswerHead(b []byte, h *httploop.Head, coding string, ans *apiAnswer, body []byte, keep bool) []byte {
	b = append(b, httploop.StatusLine(ans.status, h.HTTP10)...)
	if coding != "" {
		b = append(b, "Content-Encoding: "...)
		b = append(b, coding...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(body)), 10)
	b = append(b, "\r\nContent-Type: "...)
	b = append(b, responseContentType(h.ContentType)[0]...)
	b = append(b, "\r\n"+versionHeaderName+": "...)
	b = append(b, versionHeader()[0]...)
	b = append(b, "\r\nServer: Server\r\n"+headerCRC32+": "...)
	b = strconv.AppendUint(b, uint64(crc32.ChecksumIEEE(body)), 10)
	b = append(b, "\r\n"+headerRequestID+": "...)
	b = append(b, ans.reqID...)
	b = append(b, "\r\n"...)
	b = append(b, httploop.DateLine(time.Now())...)
	if ans.retryAfter {
		b = append(b, "Retry-After: "+retryAfterSeconds+"\r\n"...)
	}
	if !keep && !h.HTTP10 {
		b = append(b, "Connection: close\r\n"...)
	}
	return append(b, "\r\n"...)
}
