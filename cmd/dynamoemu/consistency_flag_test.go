package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConsistencyFlag(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == consistencyEnv {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name    string
		args    []string
		env     string
		want    string
		wantErr bool
	}{
		{"off by default", nil, "", "", false},
		{"flag", []string{"-consistency", "fuzz:42"}, "", "fuzz:42", false},
		{"environment", nil, "fuzz:7", "fuzz:7", false},
		{"the flag wins over the environment", []string{"-consistency", "strong"}, "fuzz:7", "strong", false},
		{"bad flag", []string{"-consistency", "fuzz:"}, "", "", true},
		{"bad environment", nil, "fuzzy", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseFlagsAs(tc.args, io.Discard, false, env(tc.env))
			if tc.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, c.consistency)
			require.Equal(t, tc.want, c.options(nil).Consistency)
		})
	}
}
