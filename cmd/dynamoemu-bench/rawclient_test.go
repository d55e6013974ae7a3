package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRawConn: answers with a length, chunked, with Connection: close and
// errors all come back as net/http's client would give them.
func TestRawConn(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("X-Amz-Target") != "DynamoDB_20120810.Op" || !strings.Contains(r.Header.Get("Authorization"), "Credential=AK/") {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"__type":"x#BadHeaders","message":"headers"}`)
			return
		}
		switch string(body) {
		case "chunked":
			io.WriteString(w, `{"a":`)
			w.(http.Flusher).Flush()
			io.WriteString(w, `1}`)
		case "close":
			w.Header().Set("Connection", "close")
			io.WriteString(w, `{"closed":true}`)
		case "error":
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"__type":"x#ValidationException","message":"no"}`)
		default:
			w.Write(body)
		}
	}))
	defer srv.Close()
	c, err := newRawConn(srv.URL, "AK")
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	var buf bytes.Buffer
	tests := []struct{ body, want, wantErr string }{
		{`{"x":1}`, `{"x":1}`, ""},
		{"chunked", `{"a":1}`, ""},
		{"close", `{"closed":true}`, ""},
		{`{"after":"close"}`, `{"after":"close"}`, ""},
		{"error", "", "HTTP 400 x#ValidationException: no"},
		{strings.Repeat("y", 100000), strings.Repeat("y", 100000), ""},
	}
	for _, tc := range tests {
		got, err := c.call("Op", []byte(tc.body), &buf)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%.20s: got error %v, want %s", tc.body, err, tc.wantErr)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%.20s: got %.40q, %v; want %.40q", tc.body, got, err, tc.want)
		}
	}
}
