package streamrec

import "time"

// Hold is a stage's hold on a stream's records (the lag gates): Stamp is
// called as each record is appended and numbers it (1, 2, ...), Visible
// is the number of the last record a reader may see now. Read shows a
// reader only the records the hold shows.
type Hold interface {
	Stamp() uint64
	Visible() uint64
}

// streamHold is a stream's hold and the sequence number of the last
// record taken before it was set: the hold's record k is numbered
// base + k.
type streamHold struct {
	h    Hold
	base uint64
}

// HoldWith returns the stream's hold, setting the one mk makes if it has
// none (mk nil: setting none), and base: the hold's record k is the
// record numbered base + k. False when it has no hold and mk is nil. A
// stream enabled again (after a disable) is a new Stream and starts
// without one.
func (s Stream) HoldWith(mk func() Hold, now time.Time) (h Hold, base uint64, ok bool) {
	for {
		if sh := s.s.hold.Load(); sh != nil {
			return sh.h, sh.base, true
		}
		if mk == nil {
			return nil, 0, false
		}
		_, next := s.s.log.Bounds(now)
		sh := &streamHold{h: mk(), base: next - 1}
		if s.s.hold.CompareAndSwap(nil, sh) {
			return sh.h, sh.base, true
		}
	}
}

// visibleLimit caps a read of limit records from pos to the records the
// stream's hold shows; ok false when it shows none from pos.
func (s *stream) visibleLimit(pos uint64, limit int) (int, bool) {
	sh := s.hold.Load()
	if sh == nil {
		return limit, true
	}
	vis := sh.base + sh.h.Visible()
	if pos > vis {
		return 0, false
	}
	return int(min(uint64(limit), vis-pos+1)), true
}
