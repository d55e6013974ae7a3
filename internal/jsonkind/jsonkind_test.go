package jsonkind

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOf(t *testing.T) {
	for in, want := range map[string]string{
		"":        "nothing",
		" \n\t":   "nothing",
		`{"a":1}`: "an object",
		" [1]":    "an array",
		`"s"`:     "a string",
		"true":    "a boolean",
		"false":   "a boolean",
		"null":    "null",
		"-1.5e3":  "a number",
		"\n 0 \n": "a number",
	} {
		require.Equal(t, want, Of([]byte(in)), "Of(%q)", in)
	}
}
