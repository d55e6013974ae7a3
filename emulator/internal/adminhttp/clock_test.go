package adminhttp

import "testing"

// FuzzClockRequest: the admin clock body decoder never panics, and
// accepts exactly one of advance and set.
func FuzzClockRequest(f *testing.F) {
	for _, s := range []string{`{"advance":"1h"}`, `{"set":"2030-01-02T03:04:05Z"}`, `{"advance":"1h","set":"x"}`, `{}`, `[`, `{"advance":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ch, err := parseClockRequest(body)
		if err == nil && ch.isSet && ch.advance != 0 {
			t.Fatalf("%q: both set and advance", body)
		}
	})
}
