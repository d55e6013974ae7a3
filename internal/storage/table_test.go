package storage

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

var (
	schemaS  = KeySchema{Partition: KeyAttr{"pk", KindS}}
	schemaSN = KeySchema{Partition: KeyAttr{"pk", KindS}, Sort: KeyAttr{"sk", KindN}}
	schemaNS = KeySchema{Partition: KeyAttr{"pk", KindN}, Sort: KeyAttr{"sk", KindS}}
	schemaBB = KeySchema{Partition: KeyAttr{"pk", KindB}, Sort: KeyAttr{"sk", KindB}}
)

// put stores item, failing the test on error.
func put(t testing.TB, tbl *Table, item Item) Change {
	t.Helper()
	ch, err := tbl.Write(tbl.KeySchema().KeyOf(item), func(Item) (Item, error) { return item, nil })
	if err != nil {
		t.Fatalf("put %v: %v", item, err)
	}
	return ch
}

func TestKeySchemaValidate(t *testing.T) {
	tests := []struct {
		name string
		ks   KeySchema
		ok   bool
	}{
		{"hash only", schemaS, true},
		{"composite", schemaSN, true},
		{"no name", KeySchema{Partition: KeyAttr{"", KindS}}, false},
		{"bad kind", KeySchema{Partition: KeyAttr{"pk", KindBOOL}}, false},
		{"sort bad kind", KeySchema{Partition: KeyAttr{"pk", KindS}, Sort: KeyAttr{"sk", KindL}}, false},
		{"sort same name", KeySchema{Partition: KeyAttr{"pk", KindS}, Sort: KeyAttr{"pk", KindS}}, false},
		{"sort kind without name", KeySchema{Partition: KeyAttr{"pk", KindS}, Sort: KeyAttr{"", KindS}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.ks.Validate()
			if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrInvalidSchema)) {
				t.Fatalf("Validate() = %v, want ok %v", err, tt.ok)
			}
		})
	}
}

func TestKeyOfAndKeyItem(t *testing.T) {
	it := Item{"pk": S("a"), "sk": N("5"), "x": Null()}
	k := schemaSN.KeyOf(it)
	if !Equal(k.Partition, S("a")) || !Equal(k.Sort, N("5")) {
		t.Fatalf("KeyOf = %v", k)
	}
	if got := schemaSN.KeyItem(k); !ItemsEqual(got, Item{"pk": S("a"), "sk": N("5")}) {
		t.Fatalf("KeyItem = %v", got)
	}
	if k := schemaS.KeyOf(it); k.Sort.IsValid() {
		t.Fatalf("KeyOf without sort key has a sort value %v", k.Sort)
	}
}

func TestWrite(t *testing.T) {
	tbl := newTable(t, schemaSN)
	k := Key{S("a"), N("1")}
	item := Item{"pk": S("a"), "sk": N("1"), "v": S("one")}

	ch := put(t, tbl, item)
	if ch.Old != nil || !ItemsEqual(ch.New, item) || ch.OldSize != 0 || ch.NewSize != ItemSize(item) {
		t.Fatalf("create: got %+v", ch)
	}
	item2 := Item{"pk": S("a"), "sk": N("1"), "v": S("two!")}
	ch = put(t, tbl, item2)
	if !ItemsEqual(ch.Old, item) || !ItemsEqual(ch.New, item2) || ch.OldSize != ItemSize(item) || ch.NewSize != ItemSize(item2) {
		t.Fatalf("replace: got %+v", ch)
	}

	boom := errors.New("boom")
	if _, err := tbl.Write(k, func(Item) (Item, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("failing fn: got %v", err)
	}
	ch, err := tbl.Write(k, func(Item) (Item, error) { return nil, ErrNoWrite })
	if err != nil || !ItemsEqual(ch.Old, item2) || !ItemsEqual(ch.New, item2) {
		t.Fatalf("ErrNoWrite: got %+v, %v", ch, err)
	}
	_, err = tbl.Write(k, func(Item) (Item, error) { return Item{"pk": S("a"), "sk": N("2")}, nil })
	if !errors.Is(err, ErrKeyMismatch) {
		t.Fatalf("key mismatch: got %v", err)
	}
	if _, err := tbl.Write(Key{S("a"), S("1")}, func(Item) (Item, error) { return nil, nil }); !errors.Is(err, ErrKeyKind) {
		t.Fatalf("wrong key kind: got %v", err)
	}
	if got, ok := tbl.Get(k); !ok || !ItemsEqual(got, item2) {
		t.Fatalf("Get after failed writes = %v, %v", got, ok)
	}
	if tbl.ItemCount() != 1 || tbl.SizeBytes() != int64(ItemSize(item2)) {
		t.Fatalf("count %d size %d", tbl.ItemCount(), tbl.SizeBytes())
	}

	ch, err = tbl.Write(k, func(Item) (Item, error) { return nil, nil })
	if err != nil || !ItemsEqual(ch.Old, item2) || ch.New != nil {
		t.Fatalf("delete: got %+v, %v", ch, err)
	}
	ch, err = tbl.Write(k, func(Item) (Item, error) { return nil, nil })
	if err != nil || ch.Old != nil || ch.New != nil {
		t.Fatalf("delete absent: got %+v, %v", ch, err)
	}
	if _, ok := tbl.Get(k); ok || tbl.ItemCount() != 0 || tbl.SizeBytes() != 0 {
		t.Fatalf("after delete: count %d size %d", tbl.ItemCount(), tbl.SizeBytes())
	}
}

func TestGetReturnsKeyAttributes(t *testing.T) {
	for _, ks := range []KeySchema{schemaS, schemaSN, schemaNS, schemaBB} {
		t.Run(fmt.Sprint(ks), func(t *testing.T) {
			tbl := newTable(t, ks)
			item := Item{"v": S("x")}
			for _, a := range []KeyAttr{ks.Partition, ks.Sort} {
				switch a.Kind {
				case KindS:
					item[a.Name] = S("k")
				case KindN:
					item[a.Name] = N("-1.5")
				case KindB:
					item[a.Name] = B([]byte{0, 0xFF})
				}
			}
			put(t, tbl, item)
			got, ok := tbl.Get(ks.KeyOf(item))
			if !ok || !ItemsEqual(got, item) {
				t.Fatalf("Get = %v, %v; want %v", got, ok, item)
			}
		})
	}
}

// sortKeys lists the sort keys Query visits.
func queryKeys(tbl *Table, r QueryRange) []string {
	var got []string
	tbl.Query(r, func(k Key, it Item) bool {
		got = append(got, k.Sort.Str())
		return true
	})
	return got
}

func TestQueryConditions(t *testing.T) {
	tbl := newTable(t, schemaNS)
	sks := []string{"", "a", "ab", "abc", "abd", "b", "b\xff", "b\xff\xff", "c", "é"}
	for _, sk := range sks {
		put(t, tbl, Item{"pk": N("7"), "sk": S(sk)})
		put(t, tbl, Item{"pk": N("8"), "sk": S(sk)})
	}
	put(t, tbl, Item{"pk": N("6"), "sk": S("zzz")})
	cond := func(op SortOp, vs ...string) SortCondition {
		c := SortCondition{Op: op}
		for i, v := range vs {
			c.Values[i] = S(v)
		}
		return c
	}
	start := func(sk string) *Key { return &Key{N("7"), S(sk)} }
	tests := []struct {
		name    string
		cond    SortCondition
		back    bool
		start   *Key
		want    []string
		wantRev bool // want listed ascending; expect it reversed
	}{
		{name: "any", cond: cond(SortAny), want: sks},
		{name: "any back", cond: cond(SortAny), back: true, want: sks, wantRev: true},
		{name: "eq", cond: cond(SortEQ, "ab"), want: []string{"ab"}},
		{name: "eq missing", cond: cond(SortEQ, "aa"), want: nil},
		{name: "lt", cond: cond(SortLT, "ab"), want: []string{"", "a"}},
		{name: "le", cond: cond(SortLE, "ab"), want: []string{"", "a", "ab"}},
		{name: "le back", cond: cond(SortLE, "ab"), back: true, want: []string{"", "a", "ab"}, wantRev: true},
		{name: "gt", cond: cond(SortGT, "b\xff"), want: []string{"b\xff\xff", "c", "é"}},
		{name: "ge", cond: cond(SortGE, "b\xff"), want: []string{"b\xff", "b\xff\xff", "c", "é"}},
		{name: "gt back", cond: cond(SortGT, "c"), back: true, want: []string{"é"}},
		{name: "between", cond: cond(SortBetween, "ab", "b"), want: []string{"ab", "abc", "abd", "b"}},
		{name: "between back", cond: cond(SortBetween, "ab", "b"), back: true, want: []string{"ab", "abc", "abd", "b"}, wantRev: true},
		{name: "between empty", cond: cond(SortBetween, "b", "a"), want: nil},
		{name: "begins", cond: cond(SortBeginsWith, "ab"), want: []string{"ab", "abc", "abd"}},
		{name: "begins back", cond: cond(SortBeginsWith, "ab"), back: true, want: []string{"ab", "abc", "abd"}, wantRev: true},
		{name: "begins ff", cond: cond(SortBeginsWith, "b\xff"), back: true, want: []string{"b\xff", "b\xff\xff"}, wantRev: true},
		{name: "begins empty", cond: cond(SortBeginsWith, ""), want: sks},
		{name: "begins multibyte", cond: cond(SortBeginsWith, "\xc3"), want: []string{"é"}},
		{name: "start", cond: cond(SortAny), start: start("abc"), want: []string{"abd", "b", "b\xff", "b\xff\xff", "c", "é"}},
		{name: "start back", cond: cond(SortAny), back: true, start: start("abc"), want: []string{"", "a", "ab"}, wantRev: true},
		{name: "start gone", cond: cond(SortAny), start: start("abcc"), want: []string{"abd", "b", "b\xff", "b\xff\xff", "c", "é"}},
		{name: "start before range", cond: cond(SortGE, "b"), start: start("a"), want: []string{"b", "b\xff", "b\xff\xff", "c", "é"}},
		{name: "start in range", cond: cond(SortBetween, "a", "b"), start: start("ab"), want: []string{"abc", "abd", "b"}},
		{name: "start at end", cond: cond(SortLE, "b"), start: start("b"), want: nil},
		{name: "start other partition", cond: cond(SortAny), start: &Key{N("8"), S("a")}, want: nil},
		{name: "wrong kind", cond: SortCondition{Op: SortEQ, Values: [2]Value{N("1")}}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := slices.Clone(tt.want)
			if tt.wantRev {
				slices.Reverse(want)
			}
			got := queryKeys(tbl, QueryRange{Partition: N("7"), Sort: tt.cond, Forward: !tt.back, ExclusiveStart: tt.start})
			if !slices.Equal(got, want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

func TestQueryNumberSortKeys(t *testing.T) {
	tbl := newTable(t, schemaSN)
	nums := []string{"-100", "-1.5", "-1", "0", "0.001", "1", "1.5", "2", "10", "100"}
	for _, n := range slices.Backward(nums) {
		put(t, tbl, Item{"pk": S("p"), "sk": N(MustNumber(n))})
	}
	var got []string
	tbl.Query(QueryRange{Partition: S("p"), Sort: SortCondition{Op: SortBetween, Values: [2]Value{N("-1"), N("2")}}, Forward: true}, func(k Key, it Item) bool {
		got = append(got, k.Sort.Str())
		return true
	})
	if want := nums[2:8]; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	got = queryKeys(tbl, QueryRange{Partition: S("p"), Sort: SortCondition{Op: SortBeginsWith, Values: [2]Value{N("1")}}})
	if got != nil {
		t.Fatalf("begins_with on a number: got %v", got)
	}
}

func TestHashOnlyTable(t *testing.T) {
	tbl := newTable(t, schemaS)
	for i := range 50 {
		put(t, tbl, Item{"pk": S(fmt.Sprint(i)), "v": N(Number(fmt.Sprint(i)))})
	}
	got := queryKeys(tbl, QueryRange{Partition: S("7"), Forward: true})
	if len(got) != 1 {
		t.Fatalf("query got %d items", len(got))
	}
	got = queryKeys(tbl, QueryRange{Partition: S("7"), Forward: true, ExclusiveStart: &Key{Partition: S("7")}})
	if len(got) != 0 {
		t.Fatalf("query after the only item got %d items", len(got))
	}
	got = queryKeys(tbl, QueryRange{Partition: S("7"), Sort: SortCondition{Op: SortEQ, Values: [2]Value{S("")}}})
	if len(got) != 0 {
		t.Fatalf("sort condition on a hash-only table got %d items", len(got))
	}
	n := 0
	tbl.Scan(ScanRange{}, func(Key, Item) bool { n++; return true })
	if n != 50 {
		t.Fatalf("scan got %d items", n)
	}
}

func TestVisitStops(t *testing.T) {
	tbl := newTable(t, schemaSN)
	for i := range 100 {
		put(t, tbl, Item{"pk": S(fmt.Sprint(i % 10)), "sk": N(Number(fmt.Sprint(i)))})
	}
	for _, limit := range []int{1, 5, 37} {
		n := 0
		tbl.Scan(ScanRange{}, func(Key, Item) bool { n++; return n < limit })
		if n != limit {
			t.Errorf("scan limit %d visited %d", limit, n)
		}
		n = 0
		tbl.Query(QueryRange{Partition: S("3")}, func(Key, Item) bool { n++; return n < min(limit, 10) })
		if n != min(limit, 10) {
			t.Errorf("query limit %d visited %d", limit, n)
		}
	}
}

func TestConcurrentAccess(t *testing.T) {
	tbl := newTable(t, schemaSN)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 300 {
				pk := S(fmt.Sprint(i % 7))
				sk := N(Number(fmt.Sprint(w*1000 + i)))
				item := Item{"pk": pk, "sk": sk, "w": N(Number(fmt.Sprint(w)))}
				put(t, tbl, item)
				if i%3 == 0 {
					tbl.Write(Key{pk, sk}, func(Item) (Item, error) { return nil, nil })
				}
			}
		})
		wg.Go(func() {
			for i := range 300 {
				tbl.Get(Key{S(fmt.Sprint(i % 7)), N(Number(fmt.Sprint(i)))})
				tbl.Query(QueryRange{Partition: S(fmt.Sprint(i % 7)), Forward: i%2 == 0}, func(Key, Item) bool { return true })
				tbl.Scan(ScanRange{Segment: i % 3, TotalSegments: 3}, func(Key, Item) bool { return i%5 != 0 })
			}
		})
	}
	wg.Wait()
	if got, want := tbl.ItemCount(), 4*200; got != want {
		t.Fatalf("ItemCount = %d, want %d", got, want)
	}
}
