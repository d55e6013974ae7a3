package idempotency

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// TestConstraints: a token of 1 to 36 characters, or none, passes; an
// empty one and one of 37 are AWS's length violations.
func TestConstraints(t *testing.T) {
	check := func(tok *string) error {
		var cs apierr.Constraints
		Constraints(&cs, tok)
		return cs.Err()
	}
	for _, ok := range []*string{nil, new("t"), new(strings.Repeat("t", MaxTokenLen))} {
		require.NoError(t, check(ok))
	}
	long := strings.Repeat("t", MaxTokenLen+1)
	require.EqualError(t, check(&long), "1 validation error detected: Value '"+long+
		"' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36")
	empty := ""
	require.EqualError(t, check(&empty), "1 validation error detected: Value '' at 'clientRequestToken' failed to satisfy constraint: Member must have length greater than or equal to 1")
}
