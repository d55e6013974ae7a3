package lease

import (
	"reflect"
	"sync"
	"weak"
)

// Config says how a Pool makes, readies and poisons its values.
type Config[T any] struct {
	// New makes a value when none is there; nil: Get is not used, only
	// TryGet.
	New func() T
	// Reset readies a given-back value for its next borrower (clears it)
	// and reports whether it is worth keeping; nil: every value is kept
	// as given back.
	Reset func(T) bool
	// Poison, in the checked mode, overwrites a given-back value (in
	// place of Reset) so that a borrower that kept it reads garbage; nil:
	// Reset.
	Poison func(T)
}

// Pool lends values of T (a pointer or a map: a value that fits an
// interface without an allocation) and takes them back.
type Pool[T any] struct {
	p sync.Pool
	c Config[T]
}

// NewPool returns a pool of values made, readied and poisoned as c says.
func NewPool[T any](c Config[T]) *Pool[T] { return &Pool[T]{c: c} }

// Get lends a value: a given-back one when there is one (never in the
// checked mode), else a new one. The Config must have New.
//
// Get, TryGet and Put keep the checked mode out of line (putChecked), so
// that a call runs the unchecked path alone (BenchmarkOps/GetItem/handler
// makes seven Gets and Puts a request). They are too big to be inlined
// (go build -gcflags=-m=2 gives the compiler's cost against its budget).
func (p *Pool[T]) Get() T {
	if !checked {
		if v, ok := p.p.Get().(T); ok {
			return v
		}
	}
	return p.c.New()
}

// TryGet lends a given-back value, if there is one (never in the checked
// mode); the caller makes one otherwise.
func (p *Pool[T]) TryGet() (T, bool) {
	if !checked {
		v, ok := p.p.Get().(T)
		return v, ok
	}
	var zero T
	return zero, false
}

// Put takes v back: the caller and whatever it gave v to must not use v
// again. A v that Reset declines is left to the collector.
func (p *Pool[T]) Put(v T) {
	if checked {
		p.putChecked(v)
		return
	}
	if p.c.Reset == nil || p.c.Reset(v) {
		p.p.Put(v)
	}
}

// putChecked is Put in the checked mode: v is poisoned and remembered,
// never kept.
func (p *Pool[T]) putChecked(v T) {
	o, owns := any(v).(owned)
	if owns && o.leaseOwned().released {
		panic("lease: value given back twice") // before Reset zeroes the flag
	}
	if p.c.Poison != nil {
		p.c.Poison(v)
	} else if p.c.Reset != nil {
		p.c.Reset(v)
	}
	released(v)
}

// Owned, embedded in a struct a Pool lends, marks the struct given back
// in the checked mode, so that Check finds a use after release.
type Owned struct {
	released bool // given back, in the checked mode
}

// owned is a struct that embeds Owned.
type owned interface{ leaseOwned() *Owned }

func (o *Owned) leaseOwned() *Owned { return o }

// Check panics, in the checked mode, when v (a struct that embeds Owned)
// was given back to its pool: the caller uses a value it no longer owns.
func Check(v owned) {
	if checked && v.leaseOwned().released {
		panic("lease: use of a value given back to its pool")
	}
}

// recent remembers the pointers last given back in the checked mode, so
// that a second Put of one panics. It holds them weakly: a value given
// back is still the collector's, and a new value at a reclaimed one's
// address is another weak pointer.
var recent struct {
	mu   sync.Mutex // guards the fields below
	set  map[weak.Pointer[byte]]bool
	ring [4096]weak.Pointer[byte] // oldest overwritten first
	next int
}

// released marks v given back (checked mode): Owned's flag, or a place
// in recent for another pointer. A second release panics. A map is not
// remembered (its Poison may tell).
func released(v any) {
	if o, ok := v.(owned); ok {
		if o.leaseOwned().released {
			panic("lease: value given back twice")
		}
		o.leaseOwned().released = true
		return
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	key := weak.Make((*byte)(rv.UnsafePointer()))
	recent.mu.Lock()
	defer recent.mu.Unlock()
	if recent.set[key] {
		panic("lease: value given back twice")
	}
	if recent.set == nil {
		recent.set = make(map[weak.Pointer[byte]]bool)
	}
	i := recent.next % len(recent.ring)
	delete(recent.set, recent.ring[i])
	recent.ring[i] = key
	recent.set[key] = true
	recent.next++
}

// Checked reports whether the pools check their borrowers (the race
// detector is on): a test of what a given-back value becomes asks.
func Checked() bool { return checked }
