package storage

import (
	"fmt"
	"testing"
)

// readItem rebuilds an item from r, checking that attribute names and M
// entry names come in strictly ascending order.
func readItem(r *ItemReader) (Item, error) {
	it := Item{}
	prev := ""
	for n := 0; ; n++ {
		name, ok := r.Next()
		if !ok {
			break
		}
		if n > 0 && name <= prev {
			return nil, fmt.Errorf("attribute %q after %q", name, prev)
		}
		prev = name
		v, err := readValue(r, 1)
		if err != nil {
			return nil, err
		}
		it[name] = v
	}
	return it, r.Err()
}

func readValue(r *ItemReader, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, fmt.Errorf("nesting deeper than %d", maxDepth)
	}
	h := r.Head()
	switch h.Kind {
	case KindS, KindN, KindB:
		return Value{kind: h.Kind, str: h.Str}, nil
	case KindBOOL:
		return Bool(h.Bool), nil
	case KindNULL:
		return Null(), nil
	case KindL:
		list := make([]Value, h.Len)
		for i := range list {
			v, err := readValue(r, depth+1)
			if err != nil {
				return Value{}, err
			}
			list[i] = v
		}
		return L(list), nil
	case KindM:
		m := make(map[string]Value, h.Len)
		prev := ""
		for i := 0; i < h.Len; i++ {
			name := r.EntryName()
			if i > 0 && name <= prev {
				return Value{}, fmt.Errorf("entry %q after %q", name, prev)
			}
			prev = name
			v, err := readValue(r, depth+1)
			if err != nil {
				return Value{}, err
			}
			m[name] = v
		}
		return M(m), nil
	case KindSS, KindNS, KindBS:
		set := make([]string, h.Len)
		for i := range set {
			set[i] = r.Member()
		}
		return SetOf(h.Kind, set), nil
	}
	if err := r.Err(); err != nil {
		return Value{}, err
	}
	return Value{}, fmt.Errorf("head of kind %s", h.Kind)
}

// encodedSamples stores each sample item (with a key added) in a table of
// every test schema and returns what GetEncoded answers, with the item.
func encodedSamples(t *testing.T) ([]EncodedItem, []Item) {
	var encs []EncodedItem
	var items []Item
	for _, ks := range []KeySchema{schemaS, schemaSN, schemaNS, schemaBB, {Partition: KeyAttr{"zz", KindS}, Sort: KeyAttr{"a", KindN}}} {
		tbl := newTable(t, ks)
		g := gen{ks: ks}
		for i, it := range sampleItems() {
			it = cloneItem(it)
			k := Key{Partition: g.fixedKey(ks.Partition.Kind, i)}
			it[ks.Partition.Name] = k.Partition
			if ks.HasSort() {
				k.Sort = g.fixedKey(ks.Sort.Kind, i)
				it[ks.Sort.Name] = k.Sort
			}
			put(t, tbl, it)
			e, ok := tbl.GetEncoded(k)
			if !ok {
				t.Fatalf("GetEncoded(%v): not found", k)
			}
			encs = append(encs, e)
			items = append(items, it)
		}
	}
	return encs, items
}

func (gen) fixedKey(k Kind, i int) Value {
	switch k {
	case KindN:
		return N(Number(fmt.Sprint(i)))
	case KindB:
		return B([]byte{byte(i), 0xff})
	}
	return S(fmt.Sprint("k", i))
}

func cloneItem(it Item) Item {
	out := make(Item, len(it))
	for k, v := range it {
		out[k] = v
	}
	return out
}

func TestItemReader(t *testing.T) {
	encs, items := encodedSamples(t)
	for i, e := range encs {
		r := e.Reader()
		got, err := readItem(&r)
		if err != nil || !ItemsEqual(got, items[i]) {
			t.Fatalf("sample %d: read %v, %v; want %v", i, got, err, items[i])
		}
		if !ItemsEqual(e.Item(), items[i]) || e.Size() != ItemSize(items[i]) || !Equal(e.Key().Partition, items[i][e.ks.Partition.Name]) {
			t.Fatalf("sample %d: Item, Size or Key differ", i)
		}
	}
}

func TestItemReaderSkip(t *testing.T) {
	encs, items := encodedSamples(t)
	for i, e := range encs {
		// Skip every other attribute; read the rest.
		r := e.Reader()
		n := 0
		for {
			name, ok := r.Next()
			if !ok {
				break
			}
			if n%2 == 0 {
				r.Skip()
			} else if v, err := readValue(&r, 1); err != nil || !Equal(v, items[i][name]) {
				t.Fatalf("sample %d attribute %q: read %v, %v; want %v", i, name, v, err, items[i][name])
			}
			n++
		}
		if r.Err() != nil || n != len(items[i]) {
			t.Fatalf("sample %d: %d attributes, err %v; want %d", i, n, r.Err(), len(items[i]))
		}
	}
}

func TestEncodedAttributes(t *testing.T) {
	encs, items := encodedSamples(t)
	for i, e := range encs {
		for _, names := range [][]string{nil, {"pk"}, {"sk", "missing"}, {"deep", "n", "pk", "n"}, {"l", "m", "a", "zz", "é"}} {
			want := Item{}
			for _, n := range names {
				if v, ok := items[i][n]; ok {
					want[n] = v
				}
			}
			if got := e.Attributes(names); !ItemsEqual(got, want) {
				t.Fatalf("sample %d Attributes(%q) = %v, want %v", i, names, got, want)
			}
		}
	}
}

func TestPut(t *testing.T) {
	tbl := newTable(t, schemaSN)
	k := Key{Partition: S("a"), Sort: N("1")}
	it := Item{"pk": S("a"), "sk": N("1"), "v": S("x")}
	ch, err := tbl.Put(k, it)
	if err != nil || ch.Old != nil || ch.OldSize != 0 || ch.NewSize != ItemSize(it) {
		t.Fatalf("first Put: %+v, %v", ch, err)
	}
	it2 := Item{"pk": S("a"), "sk": N("1"), "v": S("yy")}
	ch, err = tbl.Put(k, it2)
	if err != nil || ch.Old != nil || ch.OldSize != ItemSize(it) || !ItemsEqual(ch.New, it2) {
		t.Fatalf("second Put: %+v, %v", ch, err)
	}
	if _, err := tbl.Put(k, Item{"pk": S("b"), "sk": N("1")}); err == nil {
		t.Fatal("Put of an item with another key: no error")
	}
	ch, err = tbl.Put(k, nil)
	if err != nil || ch.OldSize != ItemSize(it2) || tbl.ItemCount() != 0 {
		t.Fatalf("delete Put: %+v, %v, %d items", ch, err, tbl.ItemCount())
	}
}

func TestDecodeOutOfOrder(t *testing.T) {
	for _, in := range []string{
		"\x01\x02\x01b\x06\x01a\x06",              // attributes
		"\x01\x01\x01a\x08\x02\x01k\x06\x01j\x06", // map entries
	} {
		if _, err := decodeItem(in, 0); err == nil {
			t.Errorf("decodeItem(%q): no error", in)
		}
	}
	e := EncodedItem{body: "\x01\x02\x01b\x06\x01a\x06", ks: &schemaS, key: Key{Partition: S("k")}}
	r := e.Reader()
	if _, err := readItem(&r); err == nil {
		t.Error("ItemReader on attributes out of order: no error")
	}
	e = EncodedItem{body: "\x01\x01\x02pk\x06", ks: &schemaS, key: Key{Partition: S("k")}}
	r = e.Reader()
	if _, err := readItem(&r); err == nil {
		t.Error("ItemReader on a record holding a key attribute: no error")
	}
}

// FuzzItemReader feeds any bytes to ItemReader and Attributes as a
// record: they never panic, and on every record decodeItem accepts they
// give what decodeItem gives.
func FuzzItemReader(f *testing.F) {
	for _, it := range sampleItems() {
		enc, err := appendItem(nil, it, "pk", "sk")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc, true)
	}
	f.Add([]byte("\x01\x02\x01b\x06\x01a\x06"), false)
	f.Fuzz(func(t *testing.T, data []byte, sort bool) {
		ks := schemaS
		key := Key{Partition: S("p")}
		if sort {
			ks, key.Sort = schemaSN, N("7")
		}
		e := EncodedItem{body: string(data), key: key, ks: &ks}
		r := e.Reader()
		got, rerr := readItem(&r)
		want, derr := decodeItem(string(data), 2)
		if derr == nil {
			_, hasPK := want["pk"]
			_, hasSK := want["sk"]
			if hasPK || (sort && hasSK) {
				if rerr == nil {
					t.Fatalf("record with a key attribute read without error: %v", got)
				}
				return
			}
			want["pk"] = key.Partition
			if sort {
				want["sk"] = key.Sort
			}
			if rerr != nil || !ItemsEqual(got, want) {
				t.Fatalf("reader: %v, %v; decodeItem: %v", got, rerr, want)
			}
			names := []string{"pk", "a", "", "sk", "zz"}
			part := Item{}
			for _, n := range names {
				if v, ok := want[n]; ok {
					part[n] = v
				}
			}
			if got := e.Attributes(names); !ItemsEqual(got, part) {
				t.Fatalf("Attributes = %v, want %v", got, part)
			}
		}
		r = e.Reader()
		for {
			if _, ok := r.Next(); !ok {
				break
			}
			r.Skip()
		}
	})
}
