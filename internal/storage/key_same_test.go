package storage

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKeySame checks that Same agrees with == on every pair of keys whose
// parts are S, N or B (the key types), with and without a sort key.
func TestKeySame(t *testing.T) {
	parts := []Value{{}, S(""), S("a"), S("ab"), N("1"), N("10"), B(nil), B([]byte("a")), B([]byte("ab"))}
	var keys []Key
	for _, p := range parts[1:] {
		for _, s := range parts {
			keys = append(keys, Key{Partition: p, Sort: s})
		}
	}
	for _, a := range keys {
		for _, b := range keys {
			require.Equal(t, a == b, a.Same(&b), "%v and %v", a, b)
		}
	}
}
