package lag

// Versions keeps, for keys written after a view's watermark, what each
// key held before: so a stale read (an eventually consistent GetItem that
// must not see the last writes yet) answers the value as of the
// watermark. It is fed at commit time (an Observer hands it every
// committed write with the record it replaced) and forgets what the
// watermark has passed. It is not safe for concurrent use: its owner's
// lock guards it.
type Versions[K comparable, V any] struct {
	byKey map[K][]version[V] // per key, oldest first
	order Queue[K]           // the keys of the changes, by commit number
}

// version is what a key held before the change numbered seq.
type version[V any] struct {
	seq    uint64
	old    V
	hadOld bool
}

// Record notes that commit seq changed key k, which held old (hadOld:
// the key had an item).
func (v *Versions[K, V]) Record(seq uint64, k K, old V, hadOld bool) {
	if v.byKey == nil {
		v.byKey = map[K][]version[V]{}
	}
	v.byKey[k] = append(v.byKey[k], version[V]{seq, old, hadOld})
	v.order.Push(seq, k)
}

// Drain forgets the changes numbered up to visible: readers see them now.
func (v *Versions[K, V]) Drain(visible uint64) {
	v.order.Drain(visible, func(k K) {
		vs := v.byKey[k]
		if len(vs) <= 1 {
			delete(v.byKey, k)
			return
		}
		clear(vs[:1])
		v.byKey[k] = vs[1:]
	})
}

// AsOf returns what key k held at the watermark of the last Drain:
// changed is false when no later change is kept (read the key's current
// value); otherwise old and hadOld are its value then. A reader reads the
// current value first and asks AsOf after, so that a write committed in
// between is answered as of the watermark too.
func (v *Versions[K, V]) AsOf(k K) (old V, hadOld, changed bool) {
	vs := v.byKey[k]
	if len(vs) == 0 {
		return old, false, false
	}
	return vs[0].old, vs[0].hadOld, true
}

// Len returns the number of changes kept.
func (v *Versions[K, V]) Len() int { return v.order.Len() }
