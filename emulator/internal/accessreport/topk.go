package accessreport

import (
	"cmp"
	"sort"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// itemKey is a key as the counters keep it: the partition key and, for
// the counters of full keys, the sort key, as storage keeps their values
// (no copy, no allocation to look one up).
type itemKey struct {
	pk, sk         string
	pkKind, skKind storage.Kind
}

// keyOf returns the counters' key for a partition key and a sort key
// (the invalid Value for none).
func keyOf(pk, sk storage.Value) itemKey {
	return itemKey{pk: pk.Str(), sk: sk.Str(), pkKind: pk.Kind(), skKind: sk.Kind()}
}

// text renders the key's values (B in base64), the partition key first.
func (k itemKey) text() []string {
	out := []string{valueText(k.pk, k.pkKind)}
	if k.skKind != storage.KindInvalid {
		out = append(out, valueText(k.sk, k.skKind))
	}
	return out
}

// valueText renders a key value of kind k held as s.
func valueText(s string, k storage.Kind) string {
	if k == storage.KindB {
		return insights.ValueText(storage.BString(s))
	}
	return s
}

// topK counts weights per key for at most max keys with the space-saving
// algorithm (Metwally, Agrawal, El Abbadi, "Efficient Computation of
// Frequent and Top-k Elements in Data Streams", 2005): a key not counted
// takes the place of the least counted one and inherits its count as its
// possible overcount. Every key whose true weight exceeds total/max is
// among those counted, and a counted key's weight is at most its count
// and at least its count minus its overcount.
type topK struct {
	max   int
	idx   map[itemKey]*counter
	heap  []*counter // a min-heap by count
	total float64    // the weight of every key added
}

// counter is one counted key.
type counter struct {
	key       itemKey
	count     float64
	overcount float64
	at        int // its position in heap
}

func newTopK(max int) *topK { return &topK{max: max, idx: map[itemKey]*counter{}} }

// add adds weight w (> 0) to key k.
func (t *topK) add(k itemKey, w float64) {
	if !(w > 0) {
		return
	}
	t.total += w
	if c, ok := t.idx[k]; ok {
		c.count += w
		t.down(c.at)
		return
	}
	// A key that enters the list is copied: its strings may be views of a
	// request's body, which the list would otherwise keep alive.
	k.pk, k.sk = strings.Clone(k.pk), strings.Clone(k.sk)
	if len(t.heap) < t.max {
		c := &counter{key: k, count: w, at: len(t.heap)}
		t.heap = append(t.heap, c)
		t.idx[k] = c
		t.up(c.at)
		return
	}
	c := t.heap[0]
	delete(t.idx, c.key)
	c.key, c.overcount = k, c.count
	c.count += w
	t.idx[k] = c
	t.down(0)
}

// top returns the n most counted keys, by count then key.
func (t *topK) top(n int) []counter {
	out := make([]counter, len(t.heap))
	for i, c := range t.heap {
		out[i] = *c
	}
	compare := func(a, b counter) int {
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		if c := cmp.Compare(a.key.pk, b.key.pk); c != 0 {
			return c
		}
		return cmp.Compare(a.key.sk, b.key.sk)
	}
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out[:min(n, len(out))]
}

func (t *topK) less(i, j int) bool { return t.heap[i].count < t.heap[j].count }

func (t *topK) swap(i, j int) {
	t.heap[i], t.heap[j] = t.heap[j], t.heap[i]
	t.heap[i].at, t.heap[j].at = i, j
}

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.less(i, p) {
			return
		}
		t.swap(i, p)
		i = p
	}
}

func (t *topK) down(i int) {
	for {
		l, small := 2*i+1, i
		if l < len(t.heap) && t.less(l, small) {
			small = l
		}
		if r := l + 1; r < len(t.heap) && t.less(r, small) {
			small = r
		}
		if small == i {
			return
		}
		t.swap(i, small)
		i = small
	}
}
