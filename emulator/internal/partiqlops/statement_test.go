package partiqlops

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStatementCache: a text is parsed once, its syntax error too.
func TestStatementCache(t *testing.T) {
	a, err := parseStatement("SELECT * FROM cached WHERE pk = 'x'")
	require.NoError(t, err)
	b, _ := parseStatement("SELECT * FROM cached WHERE pk = 'x'")
	require.True(t, a == b, "the same text was parsed twice")
	_, err1 := parseStatement("SELEC")
	_, err2 := parseStatement("SELEC")
	require.Error(t, err1)
	require.True(t, err1 == err2, "syntax errors: got %v and %v, want the same cached error", err1, err2)
}
