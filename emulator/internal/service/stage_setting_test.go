package service

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// settingProbe is a setting type of this test's own.
type settingProbe struct{ n int }

// TestSettingOf: a setting is found by the key it was put in with, the
// first of its type, and a key of another type (a value where a pointer
// was given) finds none.
func TestSettingOf(t *testing.T) {
	var ptr SettingOf[*settingProbe]
	var val SettingOf[settingProbe]
	first, second := &settingProbe{n: 1}, &settingProbe{n: 2}
	s := &Service{cfg: Config{Settings: []Setting{ptr.With(first), ptr.With(second)}}}

	got, ok := ptr.Of(s)
	require.True(t, ok)
	require.Same(t, first, got, "got the second setting of the type, want the first")

	_, ok = val.Of(s)
	require.False(t, ok, "a value key found a pointer setting")

	none := &Service{}
	got, ok = ptr.Of(none)
	require.False(t, ok)
	require.Nil(t, got)

	v := &Service{cfg: Config{Settings: []Setting{val.With(settingProbe{n: 3})}}}
	gotV, ok := val.Of(v)
	require.True(t, ok)
	require.Equal(t, 3, gotV.n)
}
