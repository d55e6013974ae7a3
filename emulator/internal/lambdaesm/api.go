package lambdaesm

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Lambda's REST API for event source mappings (API version
// 2015-03-31), so that `aws lambda create-event-source-mapping
// --endpoint-url http://localhost:8000` and the SDKs' Lambda clients
// configure the emulator's mappings:
//
//	POST   /2015-03-31/event-source-mappings/        CreateEventSourceMapping (202)
//	GET    /2015-03-31/event-source-mappings/        ListEventSourceMappings (?EventSourceArn, FunctionName, Marker, MaxItems)
//	GET    /2015-03-31/event-source-mappings/{UUID}  GetEventSourceMapping
//	PUT    /2015-03-31/event-source-mappings/{UUID}  UpdateEventSourceMapping (202)
//	DELETE /2015-03-31/event-source-mappings/{UUID}  DeleteEventSourceMapping (202)
//
// Errors are Lambda's REST shape: the status, X-Amzn-ErrorType and
// {"Type":"User","message":...}.

// APIPrefix is the path of the mappings' collection.
const APIPrefix = "/2015-03-31/event-source-mappings"

// maxAPIBody bounds a request body.
const maxAPIBody = 256 << 10

// ServeHTTP serves the event source mapping operations.
func (m *Manager) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, APIPrefix)
	rest = strings.Trim(rest, "/")
	switch {
	case rest == "" && r.Method == http.MethodPost:
		var s Spec
		if err := readSpec(r, &s); err != nil {
			writeAPIError(w, err)
			return
		}
		s.UUID = nil
		c, err := m.Create(&s)
		answer(w, http.StatusAccepted, c, err)
	case rest == "" && r.Method == http.MethodGet:
		q := r.URL.Query()
		list := m.List(q.Get("EventSourceArn"), q.Get("FunctionName"))
		start := 0
		if mk := q.Get("Marker"); mk != "" {
			n, err := strconv.Atoi(mk)
			if err != nil || n < 0 || n > len(list) {
				writeAPIError(w, invalidParameter("Invalid Marker: "+mk))
				return
			}
			start = n
		}
		limit := 100
		if mi := q.Get("MaxItems"); mi != "" {
			n, err := strconv.Atoi(mi)
			if err != nil || n < 1 || n > 10000 {
				writeAPIError(w, invalidParameter("Invalid MaxItems: "+mi))
				return
			}
			limit = n
		}
		out := struct {
			EventSourceMappings []Configuration
			NextMarker          string `json:",omitempty"`
		}{EventSourceMappings: list[start:]}
		if len(out.EventSourceMappings) > limit {
			out.EventSourceMappings = out.EventSourceMappings[:limit]
			out.NextMarker = strconv.Itoa(start + limit)
		}
		answer(w, http.StatusOK, out, nil)
	case rest != "" && !strings.Contains(rest, "/"):
		switch r.Method {
		case http.MethodGet:
			c, err := m.Get(rest)
			answer(w, http.StatusOK, c, err)
		case http.MethodPut:
			var s Spec
			if err := readSpec(r, &s); err != nil {
				writeAPIError(w, err)
				return
			}
			c, err := m.Update(rest, &s)
			answer(w, http.StatusAccepted, c, err)
		case http.MethodDelete:
			c, err := m.Delete(rest)
			answer(w, http.StatusAccepted, c, err)
		default:
			writeAPIError(w, &apiError{typ: "UnknownOperationException", status: 404, msg: "Unknown operation"})
		}
	default:
		writeAPIError(w, &apiError{typ: "UnknownOperationException", status: 404, msg: "Unknown operation"})
	}
}

func readSpec(r *http.Request, s *Spec) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxAPIBody+1))
	if err != nil || len(body) > maxAPIBody {
		return invalidParameter("The request body could not be read")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, s); err != nil {
		return &apiError{typ: "SerializationException", status: 400, msg: "Could not parse request body into json: " + err.Error()}
	}
	return nil
}

func answer(w http.ResponseWriter, status int, v any, err error) {
	if err != nil {
		writeAPIError(w, err)
		return
	}
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeAPIError writes an error as Lambda's REST API does.
func writeAPIError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{typ: "ServiceException", status: 500, msg: err.Error()}
	}
	b, _ := json.Marshal(map[string]string{"Type": "User", "message": ae.msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", ae.typ)
	w.WriteHeader(ae.status)
	_, _ = w.Write(b)
}

// ErrorStatus returns the HTTP status and Lambda error type of an error
// the Manager's methods return (400 InvalidParameterValueException,
// 404 ResourceNotFoundException, ...), or 500.
func ErrorStatus(err error) (int, string) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.status, ae.typ
	}
	return 500, "ServiceException"
}
