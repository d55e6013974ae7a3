//go:build race

package expr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// Under the race detector (lease's checked mode) a Compiler or a
// KeyCondition used after Release panics, instead of compiling with a
// zeroed or another request's Compiler.

func TestReleasedCompilerPanics(t *testing.T) {
	c := NewPooledCompiler(nil, map[string]string{"#a": "a"}, nil)
	_, err := c.Projection("#a")
	require.NoError(t, err)
	c.Release()
	require.Panics(t, func() { _, _ = c.Projection("#a") })
	require.Panics(t, func() { c.Release() }, "a second Release")
}

func TestReleasedKeyConditionPanics(t *testing.T) {
	kc := newKeyCondition(storage.S("p"))
	require.True(t, kc.Match(storage.S("p"), storage.Value{}))
	kc.Release()
	require.Panics(t, func() { kc.Match(storage.S("p"), storage.Value{}) })
}
