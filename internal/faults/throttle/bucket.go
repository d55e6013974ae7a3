package throttle

// bucket is a token bucket of capacity units: it fills at rate units per
// second up to size, a request is admitted while it holds more than
// nothing, and the request's actual units are taken afterwards, which may
// leave it in debt (a 1 MB Query on a 1 RCU table is served, and the
// table then throttles until the debt is repaid), as DynamoDB admits a
// request before it knows what it will consume.
type bucket struct {
	tokens float64 // may be negative: debt
	size   float64
	rate   float64 // units per second
	last   int64   // the clock, in Unix nanoseconds, at the last refill
}

// newBucket returns a full bucket.
func newBucket(rate, size float64, now int64) *bucket {
	return &bucket{tokens: size, size: size, rate: rate, last: now}
}

// refill adds what the time since the last refill earned. A clock moved
// backwards (SetNow to the past) earns nothing and restarts from now.
func (b *bucket) refill(now int64) {
	if now > b.last {
		b.tokens = min(b.size, b.tokens+b.rate*float64(now-b.last)/1e9)
	}
	b.last = now
}

// empty reports whether the bucket has nothing left to admit a request
// with (after a refill).
func (b *bucket) empty() bool { return b.tokens <= 0 }

// full reports whether the bucket holds all it can (after a refill): a
// full bucket is the same as a new one, so it may be forgotten.
func (b *bucket) full() bool { return b.tokens >= b.size }

// resize changes the rate and size, keeping what the bucket holds up to
// the new size.
func (b *bucket) resize(rate, size float64) {
	b.rate, b.size = rate, size
	b.tokens = min(b.tokens, size)
}
