package emulator

import (
	"context"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
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

// withRequestLog returns r with a requestLog in its context when debug
// logging is on, and r unchanged (and nil) otherwise.
func (e *Emulator) withRequestLog(r *http.Request) (*http.Request, *requestLog) {
	if !e.log.Enabled(r.Context(), slog.LevelDebug) {
		return r, nil
	}
	rl := &requestLog{start: time.Now()}
	return r.WithContext(context.WithValue(r.Context(), requestLogKey{}, rl)), rl
}

// noteTable records the TableName member of a decoded input, if the
// request is being logged.
func noteTable(ctx context.Context, in any) {
	rl, _ := ctx.Value(requestLogKey{}).(*requestLog)
	if rl == nil {
		return
	}
	v := reflect.ValueOf(in)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	f := v.FieldByName("TableName")
	for f.IsValid() && f.Kind() == reflect.Pointer && !f.IsNil() {
		f = f.Elem()
	}
	if f.IsValid() && f.Kind() == reflect.String {
		rl.table = f.String()
	}
}

// logAnswer logs a request's answer: the debug line when rl is not nil, and
// every 500 whatever the level.
func (e *Emulator) logAnswer(r *http.Request, rl *requestLog, reqID string, status int, ae *apierr.Error) {
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), targetPrefix)
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
