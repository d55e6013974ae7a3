package emulator

import (
	"context"
	"log/slog"
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

// requestLog is what a request's debug line reports; answerAPI passes it
// from the edge to the service, which notes the table in it.
type requestLog struct {
	start time.Time
	table string
}

// tableNote returns where the service is to note the request's TableName:
// rl's table, or nil when the request is not logged (rl is nil).
func (rl *requestLog) tableNote() *string {
	if rl == nil {
		return nil
	}
	return &rl.table
}

// newRequestLog returns a requestLog when debug logging is on, nil
// otherwise.
func (e *Emulator) newRequestLog(ctx context.Context) *requestLog {
	if !e.log.Enabled(ctx, slog.LevelDebug) {
		return nil
	}
	return &requestLog{start: time.Now()}
}

// logAnswer logs a request's answer: the debug line when rl is not nil, and
// every 500 whatever the level. target is the request's X-Amz-Target.
func (e *Emulator) logAnswer(target string, rl *requestLog, reqID string, status int, ae *apierr.Error) {
	op := strings.TrimPrefix(target, service.TargetPrefix)
	if status >= 500 {
		e.log.Warn("answered 500", "request_id", reqID, "op", op, "error", ae.Class.Name, "message", ae.Error(), "cause", ae.Cause)
	}
	if rl == nil {
		return
	}
	attrs := []any{"request_id", reqID, "op", op, "table", rl.table, "status", status}
	if ae != nil {
		attrs = append(attrs, "error", ae.Class.Name, "message", ae.Error())
	}
	attrs = append(attrs, "duration", time.Since(rl.start))
	e.log.Debug("request", attrs...)
}
