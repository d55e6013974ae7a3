package lease

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// setChecked turns the checked mode on or off for one test.
func setChecked(t *testing.T, on bool) {
	was := checked
	checked = on
	t.Cleanup(func() { checked = was })
}

type thing struct {
	Owned
	n   int
	buf []byte
}

func thingPool() *Pool[*thing] {
	return NewPool(Config[*thing]{
		New: func() *thing { return &thing{buf: make([]byte, 0, 8)} },
		Reset: func(t *thing) bool {
			buf := t.buf[:0]
			*t = thing{buf: buf} // zeroes Owned too, as most Resets do
			return cap(buf) <= 64
		},
		Poison: func(t *thing) {
			b := t.buf[:cap(t.buf)]
			for i := range b {
				b[i] = 0xdb
			}
		},
	})
}

// TestUseAfterRelease: in the checked mode a use after Put panics in
// Check, a kept buffer reads poison, a second Put panics, and Get never
// lends a value given back.
func TestUseAfterRelease(t *testing.T) {
	setChecked(t, true)
	p := thingPool()
	v := p.Get()
	Check(v) // borrowed: fine
	v.buf = append(v.buf, "answer"...)
	kept := v.buf
	p.Put(v)
	require.PanicsWithValue(t, "lease: use of a value given back to its pool", func() { Check(v) })
	require.Equal(t, []byte{0xdb, 0xdb, 0xdb, 0xdb, 0xdb, 0xdb}, kept, "the kept buffer is poisoned")
	require.PanicsWithValue(t, "lease: value given back twice", func() { p.Put(v) })
	require.NotSame(t, v, p.Get(), "a value given back is never lent again")
}

// TestPoisonedMap: a map given back is poisoned in the checked mode, and
// TryGet lends nothing.
func TestPoisonedMap(t *testing.T) {
	setChecked(t, true)
	p := NewPool(Config[map[string]int]{
		New:    func() map[string]int { return map[string]int{} },
		Reset:  func(m map[string]int) bool { clear(m); return true },
		Poison: func(m map[string]int) { m["released"] = -1 },
	})
	m := p.Get()
	m["a"] = 1
	p.Put(m)
	require.Equal(t, map[string]int{"a": 1, "released": -1}, m, "poisoned in place of Reset")
	_, ok := p.TryGet()
	require.False(t, ok, "TryGet lends nothing in the checked mode")
}

// TestDoubleReleaseOfPointer: a pointer that does not embed Owned, given
// back twice, panics in the checked mode; one given back once and then
// reclaimed does not hold its address against a new value.
func TestDoubleReleaseOfPointer(t *testing.T) {
	setChecked(t, true)
	p := NewPool(Config[*[]byte]{New: func() *[]byte { b := make([]byte, 0, 64); return &b }})
	b := p.Get()
	p.Put(b)
	require.PanicsWithValue(t, "lease: value given back twice", func() { p.Put(b) })
	for range 10000 { // more than recent remembers: addresses are reused
		p.Put(p.Get())
	}
}

// TestUnchecked: without the checked mode a value given back is reset,
// kept when Reset says so, and Check does nothing.
func TestUnchecked(t *testing.T) {
	setChecked(t, false)
	p := thingPool()
	v := p.Get()
	v.n = 7
	v.buf = append(v.buf, "x"...)
	p.Put(v)
	Check(v) // no check outside the checked mode
	require.Equal(t, 0, v.n)
	require.Empty(t, v.buf)
	big := p.Get()
	big.buf = make([]byte, 0, 128)
	p.Put(big) // declined by Reset: left to the collector
	require.NotPanics(t, func() { p.Put(p.Get()) })
}

// TestCheckedUnderRace: the race detector turns the checked mode on, so
// the -race run of every package's tests checks its pools.
func TestCheckedUnderRace(t *testing.T) {
	require.Equal(t, raceEnabled, checked)
}

// TestDoubleReleaseThroughReset: a second Put panics even when Reset
// zeroes the whole struct, Owned included (the checked mode looks before
// it resets).
func TestDoubleReleaseThroughReset(t *testing.T) {
	setChecked(t, true)
	p := NewPool(Config[*thing]{
		New:   func() *thing { return new(thing) },
		Reset: func(t *thing) bool { *t = thing{}; return true },
	})
	v := p.Get()
	p.Put(v)
	require.Panics(t, func() { Check(v) })
	require.PanicsWithValue(t, "lease: value given back twice", func() { p.Put(v) })
}
