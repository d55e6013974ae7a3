package emulator

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Request logging. At debug level every request is logged once it is
// answered: the operation, the table, the status, the error's type and
// message, and the duration. At any level every 500 is logged with its
// request id (panics also with their stack, where they are recovered).
// Nothing of this costs a request anything when debug is off: the record is
// made only then.

// requestLog is what a request's debug line reports; it travels in the
// request's context from serveOp to the operation's adapter.
type requestLog struct {
	start time.Time
	table string
}

type requestLogKey struct{}

// tableNote returns where the service is to note r's TableName: its
// requestLog's table, or nil when r is not logged.
func tableNote(r *http.Request) *string {
	if rl, _ := r.Context().Value(requestLogKey{}).(*requestLog); rl != nil {
		return &rl.table
	}
	return nil
}

// withRequestLog returns r with a requestLog in its context when debug
// logging is on, and r unchanged (and nil) otherwise.
func (e *Emulator) withRequestLog(r *http.Request) (*http.Request, *requestLog) {
	if !e.log.Enabled(r.Context(), slog.LevelDebug) {
		return r, nil
	}
	rl := &requestLog{start: time.Now()}
	return r.WithContext(context.WithValue(r.Context(), requestLogKey{}, rl)), rl
}

// logAnswer logs a request's answer: the debug line when rl is not nil, and
// every 500 whatever the level.
func (e *Emulator) logAnswer(r *http.Request, rl *requestLog, reqID string, status int, ae *apierr.Error) {
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), service.TargetPrefix)
	if status >= 500 {
		e.log.Warn("answered 500", "request_id", reqID, "op", op, "error", ae.Class.Name, "message", ae.Msg, "cause", ae.Cause)
	}
	if rl == nil {
		return
	}
	attrs := []any{"request_id", reqID, "op", op, "table", rl.table, "status", status}
	if ae != nil {
		attrs = append(attrs, "error", ae.Class.Name, "message", ae.Msg)
	}
	attrs = append(attrs, "duration", time.Since(rl.start))
	e.log.Debug("request", attrs...)
}
