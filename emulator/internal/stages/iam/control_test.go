package iam

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAfterTable(t *testing.T) {
	require.Equal(t, "Orders/stream/2026-11-26T00:00:00.000", afterTable("arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/2026-11-26T00:00:00.000"))
	require.Equal(t, "Orders", afterTable("arn:aws:dynamodb:us-east-1:000000000000:table/Orders"))
	require.Empty(t, afterTable("Orders"))
	require.Empty(t, afterTable("arn:aws:s3:::table/Orders"))
	require.Empty(t, afterTable("arn:aws:dynamodb:us-east-1:000000000000:global-table/Orders"))
}

// FuzzAfterTable: the ARN reader never panics and returns a suffix of
// its input.
func FuzzAfterTable(f *testing.F) {
	f.Add("arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/x")
	f.Add("arn:aws:dynamodb:::table/")
	f.Add("arn:::::")
	f.Fuzz(func(t *testing.T, s string) {
		got := afterTable(s)
		if !strings.HasSuffix(s, got) {
			t.Fatalf("afterTable(%q) = %q, not a suffix", s, got)
		}
	})
}
