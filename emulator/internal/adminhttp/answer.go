package adminhttp

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// Bodies the admin endpoints read: MaxBody for the small ones (a clock
// move, a drain), MaxFileBody for fault rules, design files (a design
// file is at most 1 MB), lag settings and a branch's making.
const (
	MaxBody     = 4 << 10
	MaxFileBody = 2 << 20
)

// ReadBody reads r's body, of at most limit bytes. A body announced
// larger is refused before any of it is read: a Content-Length of 2 GB
// is answered at once, not when the bytes that will not come time out.
func ReadBody(r *http.Request, limit int) ([]byte, error) {
	if r.ContentLength > int64(limit) {
		return nil, fmt.Errorf("body over %d bytes", limit)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(body) > limit {
		return nil, fmt.Errorf("body over %d bytes", limit)
	}
	return body, nil
}

// Write answers status with body, JSON.
func Write(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// WriteJSON answers v as JSON, 200.
func WriteJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		WriteError(w, err)
		return
	}
	Write(w, http.StatusOK, string(b))
}

// WriteError answers a bad admin request (a malformed body, a clock out
// of range) with 400 and a ValidationException body, as the API answers
// bad input.
func WriteError(w http.ResponseWriter, err error) {
	writeClass(w, &apierr.Error{Class: apierr.ErrValidation, Msg: err.Error(), Cause: err}, http.StatusBadRequest)
}

// writeClass answers ae with status.
func writeClass(w http.ResponseWriter, ae *apierr.Error, status int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(wire.AppendErrorBody(nil, ae))
}

// act answers a request that only does something: r's CORS headers, do,
// then body, 200.
func (a *Admin) act(w http.ResponseWriter, r *http.Request, do func(), body string) {
	a.CORS.Apply(w, r)
	do()
	Write(w, http.StatusOK, body)
}
