package httploop

import (
	"strings"
	"testing"
)

// TestNewRequestID: a request id is a UUID's form, 32 random hex digits,
// no two alike and no digit stuck.
func TestNewRequestID(t *testing.T) {
	seen := map[string]bool{}
	var digits [36]map[byte]bool
	for range 2000 {
		id := NewRequestID()
		if len(id) != 36 || seen[id] {
			t.Fatalf("id %q: wrong length or repeated", id)
		}
		seen[id] = true
		for i := range len(id) {
			c := id[i]
			if i == 8 || i == 13 || i == 18 || i == 23 {
				if c != '-' {
					t.Fatalf("id %q: no '-' at %d", id, i)
				}
				continue
			}
			if !strings.ContainsRune("0123456789abcdef", rune(c)) {
				t.Fatalf("id %q: %q at %d", id, c, i)
			}
			if digits[i] == nil {
				digits[i] = map[byte]bool{}
			}
			digits[i][c] = true
		}
	}
	for i, d := range digits {
		if d != nil && len(d) < 16 {
			t.Errorf("digit %d takes only %d values in 2000 ids", i, len(d))
		}
	}
}
