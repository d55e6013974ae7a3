package partiqlops

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
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

// TestBindParams: the statement's ?s get the request's first values, in
// order; extra values are ignored, too few are refused.
func TestBindParams(t *testing.T) {
	st, err := parseStatement("SELECT * FROM bind WHERE pk = ? AND sk = ?")
	require.NoError(t, err)
	vals := func(n int) []wire.AttributeValue {
		out := make([]wire.AttributeValue, n)
		for i := range out {
			out[i] = wire.AttributeValue{Value: storage.S(strconv.Itoa(i))}
		}
		return out
	}
	cases := []struct {
		name  string
		given int
		want  []storage.Value
		err   string
	}{
		{"as many", 2, []storage.Value{storage.S("0"), storage.S("1")}, ""},
		{"more", 1000, []storage.Value{storage.S("0"), storage.S("1")}, ""},
		{"fewer", 1, nil, apierr.MsgParamCount},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := bindParams(st, vals(tc.given), len(vals(tc.given)))
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}
