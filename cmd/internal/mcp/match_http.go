package mcp

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// design_match over plain HTTP, for the web console's query builder: the
// same matcher the tool runs (designMatch), so that the console and an
// agent get one answer for one request. The emulator serves it at
// adminpath.DesignMatch (Options.DesignMatch) behind its Host
// check and admin guard, as it serves the other admin endpoints: it runs
// nothing and changes nothing, so it needs no bearer token.

// maxMatchBody bounds a match request: one DynamoDB request (at most a
// transaction of 100 items of 400 KB is far more than a builder sends).
const maxMatchBody = 1 << 20

// matchRequest is the body MatchHandler takes.
type matchRequest struct {
	// Namespace is the namespace whose tables the request reads
	// ("AKID/region"; "" or "shared": the default one).
	Namespace string          `json:"namespace"`
	Operation string          `json:"operation"`
	Request   json.RawMessage `json:"request"`
}

// MatchHandler answers POST {"namespace": "AKID/region", "operation":
// "Query", "request": {...}} with design_match's answer for that request
// in that namespace: {"design", "matches": [{pattern, why, nearestPattern,
// ...}], "summary"}. Without a design it answers {"design": "", "note":
// ...} (not an error: a console asks before any design is set); a bad
// body or request is a 400 ValidationException with design_match's
// message.
func MatchHandler(emu *emulator.Emulator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			matchError(w, http.StatusMethodNotAllowed, errors.New("POST a request to match"))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMatchBody))
		if err != nil {
			matchError(w, http.StatusRequestEntityTooLarge, errors.New("the body is over 1 MB"))
			return
		}
		var in matchRequest
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			matchError(w, http.StatusBadRequest, inputErrorf("the body is {\"namespace\", \"operation\", \"request\"}: %v", err))
			return
		}
		ak, region := "", ""
		if in.Namespace != "" && in.Namespace != "shared" {
			var ok bool
			if ak, region, ok = strings.Cut(in.Namespace, "/"); !ok || ak == "" || region == "" {
				matchError(w, http.StatusBadRequest, inputErrorf("namespace %q is not AKID/region", in.Namespace))
				return
			}
		}
		opts := Options{AccessKey: ak, Region: region, ReadOnly: true}.withDefaults()
		s := &Server{emu: emu, opts: opts, eng: newEngine(emu, opts.AccessKey, opts.Region)}
		var out any
		if d, derr := s.design(); derr == nil && d == nil {
			out = map[string]string{"design": "", "note": "no design is set: the server's -design flag, PUT /dynamoemu/report/design or the MCP design_set tool sets one"}
		} else {
			args, _ := json.Marshal(map[string]any{"operation": in.Operation, "request": in.Request})
			if out, err = s.designMatch(r.Context(), args); err != nil {
				matchError(w, http.StatusBadRequest, err)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
}

// matchError writes err as the emulator's admin endpoints write theirs:
// a DynamoDB error body ({"__type", "message"}).
func matchError(w http.ResponseWriter, status int, err error) {
	typ := "com.amazon.coral.validate#ValidationException"
	var ae *apiError
	if errors.As(err, &ae) {
		typ, status = "com.amazonaws.dynamodb.v20120810#"+ae.Type, ae.Status
		if status == 0 {
			status = http.StatusBadRequest
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": typ, "message": err.Error()})
}
