package httpedge

import (
	"context"
	"log/slog"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// The request log. At debug level every API request is logged once it is
// answered: the operation, the table, the status, the error's type and
// message, and the duration. At any level every 500 is logged with its
// request id (panics also with their stack, where they are recovered).
// Nothing of this costs a request anything when debug is off: the record
// is made only then.

// RequestLog is what a request's debug line reports: the edge makes it
// (NewRequestLog) and the service notes the table in it (TableNote).
type RequestLog struct {
	start time.Time
	table string
}

// NewRequestLog returns a RequestLog when log logs at debug level, nil
// otherwise.
func NewRequestLog(ctx context.Context, log *slog.Logger) *RequestLog {
	if !log.Enabled(ctx, slog.LevelDebug) {
		return nil
	}
	return &RequestLog{start: time.Now()}
}

// TableNote returns where the service is to note the request's
// TableName: rl's table, or nil when the request is not logged (rl is
// nil).
func (rl *RequestLog) TableNote() *string {
	if rl == nil {
		return nil
	}
	return &rl.table
}

// LogAnswer logs a request's answer to log: the debug line when rl is not
// nil, and every 500 whatever the level. op is the operation's name.
func LogAnswer(log *slog.Logger, op string, rl *RequestLog, reqID string, status int, ae *apierr.Error) {
	if status >= 500 {
		log.Warn("answered 500", "request_id", reqID, "op", op, "error", ae.Class.Name, "message", ae.Error(), "cause", ae.Cause)
	}
	if rl == nil {
		return
	}
	attrs := []any{"request_id", reqID, "op", op, "table", rl.table, "status", status}
	if ae != nil {
		attrs = append(attrs, "error", ae.Class.Name, "message", ae.Error())
	}
	attrs = append(attrs, "duration", time.Since(rl.start))
	log.Debug("request", attrs...)
}
