package storage

import (
	"errors"
	"fmt"
	"github.com/dynamoemu/dynamoemu/internal/number"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// model is the reference the randomized test compares Table with: a plain
// slice of items kept in scan order, every answer computed by filtering it.
type model struct {
	ks    KeySchema
	items []Item
}

// compareScan orders keys as Scan does: partition hash, partition key text,
// then sort key by DynamoDB's typed order (Compare, not the byte encoding).
func (m *model) compareScan(a, b Key) int {
	ha, hb := partitionHash(a.Partition.Str()), partitionHash(b.Partition.Str())
	if ha != hb {
		if ha < hb {
			return -1
		}
		return 1
	}
	if c := strings.Compare(a.Partition.Str(), b.Partition.Str()); c != 0 {
		return c
	}
	if !m.ks.HasSort() {
		return 0
	}
	c, _ := Compare(a.Sort, b.Sort)
	return c
}

func (m *model) find(k Key) (int, bool) {
	return slices.BinarySearchFunc(m.items, k, func(it Item, k Key) int { return m.compareScan(m.ks.KeyOf(it), k) })
}

func (m *model) put(it Item) {
	i, found := m.find(m.ks.KeyOf(it))
	if found {
		m.items[i] = it
	} else {
		m.items = slices.Insert(m.items, i, it)
	}
}

func (m *model) delete(k Key) {
	if i, found := m.find(k); found {
		m.items = slices.Delete(m.items, i, i+1)
	}
}

func (m *model) size() int64 {
	var n int64
	for _, it := range m.items {
		n += int64(ItemSize(it))
	}
	return n
}

func (m *model) matches(c SortCondition, sk Value) bool {
	cmp := func(v Value) int { c, _ := Compare(sk, v); return c }
	switch c.Op {
	case SortAny:
		return true
	case SortEQ:
		return cmp(c.Values[0]) == 0
	case SortLT:
		return cmp(c.Values[0]) < 0
	case SortLE:
		return cmp(c.Values[0]) <= 0
	case SortGT:
		return cmp(c.Values[0]) > 0
	case SortGE:
		return cmp(c.Values[0]) >= 0
	case SortBetween:
		return cmp(c.Values[0]) >= 0 && cmp(c.Values[1]) <= 0
	case SortBeginsWith:
		return strings.HasPrefix(sk.Str(), c.Values[0].Str())
	}
	return false
}

func (m *model) query(pk Value, c SortCondition, forward bool) []Item {
	var out []Item
	for _, it := range m.items {
		k := m.ks.KeyOf(it)
		if k.Partition.Str() == pk.Str() && m.matches(c, k.Sort) {
			out = append(out, it)
		}
	}
	if !forward {
		slices.Reverse(out)
	}
	return out
}

func (m *model) scan(seg, total int) []Item {
	var out []Item
	for _, it := range m.items {
		if SegmentOf(m.ks.KeyOf(it).Partition, total) == seg {
			out = append(out, it)
		}
	}
	return out
}

// gen draws keys from small spaces so writes collide and partitions fill.
type gen struct {
	r  *rand.Rand
	ks KeySchema
}

var (
	genStrings = []string{"", "a", "ab", "abc", "b", "b\xff", "\xff", "é", "z", "\x00", "ab\x00"}
	genNumbers = []string{"-100", "-1.5", "-1", "-0.001", "0", "0.001", "0.5", "1", "1.5", "2", "10", "12.25", "100", "1E100"}
)

func (g gen) keyValue(k Kind, pool int) Value {
	switch k {
	case KindN:
		return N(MustNumber(genNumbers[g.r.IntN(min(pool, len(genNumbers)))]))
	case KindB:
		return BString(genStrings[g.r.IntN(min(pool, len(genStrings)))])
	}
	return S(genStrings[g.r.IntN(min(pool, len(genStrings)))])
}

func (g gen) key() Key {
	k := Key{Partition: g.keyValue(g.ks.Partition.Kind, 6)}
	if g.ks.HasSort() {
		k.Sort = g.keyValue(g.ks.Sort.Kind, 100)
	}
	return k
}

func (g gen) value(depth int) Value {
	switch n := g.r.IntN(10); {
	case n < 3:
		return S(strings.Repeat("x", g.r.IntN(20)))
	case n < 5:
		return N(number.Random(g.r))
	case n == 5:
		return B([]byte{byte(g.r.IntN(256))})
	case n == 6:
		return Bool(g.r.IntN(2) == 0)
	case n == 7 && depth < 3:
		l := make([]Value, g.r.IntN(3))
		for i := range l {
			l[i] = g.value(depth + 1)
		}
		return L(l)
	case n == 8 && depth < 3:
		m := map[string]Value{}
		for i := range g.r.IntN(3) {
			m[fmt.Sprint("m", i)] = g.value(depth + 1)
		}
		return M(m)
	case n == 9:
		return SS([]string{"p", "q"}[:1+g.r.IntN(2)])
	}
	return Null()
}

func (g gen) item(k Key) Item {
	it := g.ks.KeyItem(k)
	for i := range g.r.IntN(5) {
		it[fmt.Sprint("a", i)] = g.value(0)
	}
	return it
}

func (g gen) condition() SortCondition {
	if !g.ks.HasSort() {
		return SortCondition{}
	}
	op := SortOp(g.r.IntN(8))
	if op == SortBeginsWith && g.ks.Sort.Kind == KindN {
		op = SortAny
	}
	c := SortCondition{Op: op, Values: [2]Value{g.keyValue(g.ks.Sort.Kind, 100), g.keyValue(g.ks.Sort.Kind, 100)}}
	if op == SortBetween {
		if cmp, _ := Compare(c.Values[0], c.Values[1]); cmp > 0 {
			c.Values[0], c.Values[1] = c.Values[1], c.Values[0]
		}
	}
	return c
}

// page collects up to limit items from a Query or Scan call.
func page(run func(visit func(Key, Item) bool), limit int) (items []Item, last *Key) {
	run(func(k Key, it Item) bool {
		items = append(items, it)
		last = &k
		return len(items) < limit
	})
	return items, last
}

func sameItems(got, want []Item) error {
	if len(got) != len(want) {
		return fmt.Errorf("got %d items, want %d", len(got), len(want))
	}
	for i := range got {
		if !ItemsEqual(got[i], want[i]) {
			return fmt.Errorf("item %d: got %v, want %v", i, got[i], want[i])
		}
	}
	return nil
}

func TestModelRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("STORAGE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (rerun with STORAGE_SEED=%d)", seed, seed)
	for _, ks := range []KeySchema{schemaS, schemaSN, schemaNS, schemaBB} {
		t.Run(fmt.Sprintf("%s_%s", ks.Partition.Kind, ks.Sort.Kind), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, uint64(ks.Partition.Kind)<<8|uint64(ks.Sort.Kind)))
			runModel(t, seed, r, ks, 3000)
		})
	}
}

func runModel(t *testing.T, seed uint64, r *rand.Rand, ks KeySchema, steps int) {
	tbl := newTable(t, ks)
	m := &model{ks: ks}
	g := gen{r: r, ks: ks}
	fail := func(step int, op string, err error) {
		t.Helper()
		t.Fatalf("seed %d step %d %s: %v", seed, step, op, err)
	}
	for step := range steps {
		switch op := r.IntN(100); {
		case op < 40: // put
			k := g.key()
			it := g.item(k)
			i, found := m.find(k)
			var ch Change
			var err error
			if r.IntN(2) == 0 {
				ch, err = tbl.Write(k, func(old Item) (Item, error) {
					if found != (old != nil) || (found && !ItemsEqual(old, m.items[i])) {
						return nil, fmt.Errorf("fn got old %v, model has %v", old, found)
					}
					return it, nil
				})
			} else if ch, err = tbl.Put(k, it); ch.Old != nil || found != (ch.OldSize > 0) {
				fail(step, "Put", fmt.Errorf("change %+v, model has %v", ch, found))
			}
			if err != nil {
				fail(step, "put", err)
			}
			if ch.NewSize != ItemSize(it) || (found && ch.OldSize != ItemSize(m.items[i])) {
				fail(step, "put", fmt.Errorf("change sizes %d, %d", ch.OldSize, ch.NewSize))
			}
			m.put(it)
		case op < 55: // delete
			k := g.key()
			_, found := m.find(k)
			if r.IntN(2) == 0 {
				ch, err := tbl.Write(k, func(Item) (Item, error) { return nil, nil })
				if err != nil || (ch.Old != nil) != found || ch.New != nil {
					fail(step, "delete", fmt.Errorf("%+v, %v", ch, err))
				}
			} else if ch, err := tbl.Put(k, nil); err != nil || ch.Old != nil || (ch.OldSize > 0) != found || ch.New != nil {
				fail(step, "delete by Put", fmt.Errorf("%+v, %v", ch, err))
			}
			m.delete(k)
		case op < 60: // writes that write nothing
			k := g.key()
			want := errors.New("no")
			ret := []error{want, ErrNoWrite}[r.IntN(2)]
			_, err := tbl.Write(k, func(Item) (Item, error) { return g.item(k), ret })
			if (ret == ErrNoWrite && err != nil) || (ret == want && err != want) {
				fail(step, "no-write", err)
			}
		case op < 70: // get
			k := g.key()
			i, found := m.find(k)
			got, ok := tbl.Get(k)
			if ok != found || (found && !ItemsEqual(got, m.items[i])) {
				fail(step, "get", fmt.Errorf("got %v, %v; model has %v", got, ok, found))
			}
			e, ok := tbl.GetEncoded(k)
			if ok != found {
				fail(step, "GetEncoded", fmt.Errorf("found %v; model has %v", ok, found))
			}
			if found {
				rd := e.Reader()
				got, err := readItem(&rd)
				if err != nil || !ItemsEqual(got, m.items[i]) || e.Size() != ItemSize(m.items[i]) {
					fail(step, "GetEncoded", fmt.Errorf("read %v, %v; model has %v", got, err, m.items[i]))
				}
			}
		case op < 88: // query, paged
			pk := g.keyValue(ks.Partition.Kind, 6)
			c := g.condition()
			fwd := r.IntN(2) == 0
			want := m.query(pk, c, fwd)
			limit := 1 + r.IntN(4)
			var got []Item
			var start *Key
			for {
				items, last := page(func(v func(Key, Item) bool) {
					tbl.Query(QueryRange{Partition: pk, Sort: c, Forward: fwd, ExclusiveStart: start}, v)
				}, limit)
				got = append(got, items...)
				if len(items) < limit || len(got) > len(want)+limit {
					break
				}
				start = last
				if r.IntN(4) == 0 { // the start key need not exist any more
					if _, err := tbl.Write(*last, func(Item) (Item, error) { return nil, nil }); err != nil {
						fail(step, "query delete", err)
					}
					m.delete(*last)
				}
			}
			if err := sameItems(got, want); err != nil {
				fail(step, fmt.Sprintf("query %s %v fwd=%v limit=%d", pk.Str(), c, fwd, limit), err)
			}
		default: // scan, all segments, paged
			total := []int{0, 1, 2, 3, 5}[r.IntN(5)]
			limit := 1 + r.IntN(7)
			var all []Item
			wantAll := slices.Clone(m.items)
			for seg := range max(total, 1) {
				want := m.scan(seg, total)
				var got []Item
				var start *Key
				for {
					items, last := page(func(v func(Key, Item) bool) {
						tbl.Scan(ScanRange{Segment: seg, TotalSegments: total, ExclusiveStart: start}, v)
					}, limit)
					got = append(got, items...)
					if len(items) < limit || len(got) > len(want)+limit {
						break
					}
					start = last
					if r.IntN(4) == 0 { // the start key need not exist any more
						if _, err := tbl.Write(*last, func(Item) (Item, error) { return nil, nil }); err != nil {
							fail(step, "scan delete", err)
						}
						m.delete(*last)
					}
				}
				if err := sameItems(got, want); err != nil {
					fail(step, fmt.Sprintf("scan segment %d/%d limit %d", seg, total, limit), err)
				}
				all = append(all, got...)
			}
			if err := sameItems(all, wantAll); err != nil {
				fail(step, fmt.Sprintf("scan of all %d segments", total), err)
			}
		}
		if got, want := tbl.ItemCount(), len(m.items); got != want {
			fail(step, "invariant", fmt.Errorf("ItemCount = %d, model %d", got, want))
		}
		if got, want := tbl.SizeBytes(), m.size(); got != want {
			fail(step, "invariant", fmt.Errorf("SizeBytes = %d, model %d", got, want))
		}
		if err := tbl.Check(); err != nil {
			fail(step, "invariant", err)
		}
	}
}
