package storage

import (
	"errors"
	"slices"
	"testing"
)

func TestDBCatalog(t *testing.T) {
	db := newDB(t, nil)
	a, err := db.CreateTable(TableDef{Name: "a", ID: "1", Schema: schemaS, Indexes: testIndexes[:1], Meta: map[string][]byte{"m": []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateTable(TableDef{Name: "b", ID: "2", Schema: schemaSN}); err != nil {
		t.Fatal(err)
	}
	if got, want := a.Name()+" "+a.ID(), "a 1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, _, err := a.IndexStats(testIndexes[0].Name); err != nil {
		t.Errorf("index of the definition: %v", err)
	}
	if got, want := string(a.Meta("m")), "x"; got != want {
		t.Errorf("metadata of the definition: got %q, want %q", got, want)
	}
	creates := []struct {
		name string
		def  TableDef
		want error
	}{
		{"name in use", TableDef{Name: "a", ID: "3", Schema: schemaS}, ErrTableExists},
		{"ID in use", TableDef{Name: "c", ID: "2", Schema: schemaS}, ErrTableExists},
		{"no name", TableDef{ID: "3", Schema: schemaS}, ErrInvalidSchema},
		{"no ID", TableDef{Name: "c", Schema: schemaS}, ErrInvalidSchema},
		{"bad schema", TableDef{Name: "c", ID: "3"}, ErrInvalidSchema},
		{"index twice", TableDef{Name: "c", ID: "3", Schema: schemaS, Indexes: []IndexDef{testIndexes[0], testIndexes[0]}}, ErrInvalidSchema},
		{"bad index", TableDef{Name: "c", ID: "3", Schema: schemaS, Indexes: []IndexDef{{Name: "x"}}}, ErrInvalidSchema},
	}
	for _, tc := range creates {
		if _, err := db.CreateTable(tc.def); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	var names []string
	for _, tb := range db.Tables() {
		names = append(names, tb.Name())
	}
	if want := []string{"a", "b"}; !slices.Equal(names, want) {
		t.Errorf("Tables: got %q, want %q", names, want)
	}
	if db.Table("a") != a || db.TableByID("1") != a || db.Table("1") != nil || db.TableByID("a") != nil {
		t.Error("lookups by name and ID")
	}

	// Drop, then re-create the name with another ID.
	if err := db.DropTable("a"); err != nil {
		t.Fatal(err)
	}
	if err := db.DropTable("a"); !errors.Is(err, ErrNoTable) {
		t.Errorf("second drop: got %v, want ErrNoTable", err)
	}
	if db.Table("a") != nil || db.TableByID("1") != nil {
		t.Error("dropped table still found")
	}
	a2, err := db.CreateTable(TableDef{Name: "a", ID: "3", Schema: schemaS})
	if err != nil {
		t.Fatal(err)
	}
	if db.Table("a") != a2 {
		t.Error("re-created table not found by name")
	}
	// The dropped table still works for whoever holds it.
	if _, err := a.Put(sKey("x"), numItem("x", 1)); err != nil || a.ItemCount() != 1 || a2.ItemCount() != 0 {
		t.Errorf("write to a dropped table: %v, counts %d and %d", err, a.ItemCount(), a2.ItemCount())
	}
}

func TestDBMeta(t *testing.T) {
	db, tb := newHookedTable(t, nil)
	buf := []byte("v1")
	tb.SetMeta("k", buf)
	buf[0] = 'X' // SetMeta copied it
	db.SetMeta("d", []byte{})
	tests := []struct {
		name string
		got  []byte
		want string
		nil  bool
	}{
		{"table key", tb.Meta("k"), "v1", false},
		{"absent", tb.Meta("x"), "", true},
		{"empty value", db.Meta("d"), "", false},
	}
	for _, tc := range tests {
		if string(tc.got) != tc.want || (tc.got == nil) != tc.nil {
			t.Errorf("%s: got %q (nil %v), want %q (nil %v)", tc.name, tc.got, tc.got == nil, tc.want, tc.nil)
		}
	}
	tb.SetMeta("k", nil)
	if got := tb.MetaKeys(); len(got) != 0 {
		t.Errorf("after delete: keys %q, want none", got)
	}
	if got, want := db.MetaKeys(), []string{"d"}; !slices.Equal(got, want) {
		t.Errorf("DB keys: got %q, want %q", got, want)
	}
}

func TestApplyErrors(t *testing.T) {
	h := &recHook{}
	src, tb := newHookedTable(t, h)
	tb.Put(sKey("a"), numItem("a", 1))
	tb.AddIndex(testIndexes[0])
	src.SetMeta("k", []byte("v"))
	create, put, addIndex := h.recs[0], h.recs[1], h.recs[2]

	lying := cloneRecord(put)
	lying.Writes[0].New.size++

	wrongKey := cloneRecord(put)
	wrongKey.Writes[0].Key = Key{Partition: N("1")}

	tests := []struct {
		name  string
		setup []*Record
		r     *Record
		want  error
	}{
		{"commit to a missing table", nil, put, ErrNoTable},
		{"index on a missing table", nil, addIndex, ErrNoTable},
		{"meta of a missing table", nil, &Record{Kind: RecordMeta, Table: "id-t", Key: "k"}, ErrNoTable},
		{"drop a missing table", nil, &Record{Kind: RecordDropTable, Table: "id-t"}, ErrNoTable},
		{"create twice", []*Record{create}, create, ErrTableExists},
		{"index twice", []*Record{create, addIndex}, addIndex, ErrIndexExists},
		{"drop a missing index", []*Record{create}, &Record{Kind: RecordDropIndex, Table: "id-t", Index: &IndexDef{Name: "x"}}, ErrNoIndex},
		{"size does not match", []*Record{create}, lying, ErrCorrupt},
		{"key does not fit", []*Record{create}, wrongKey, ErrCorrupt},
		{"unknown kind", nil, &Record{Kind: 99}, ErrCorrupt},
		{"create without a definition", nil, &Record{Kind: RecordCreateTable}, ErrCorrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := newDB(t, nil)
			for _, r := range tc.setup {
				if err := db.Apply(r, nil); err != nil {
					t.Fatal(err)
				}
			}
			before := dumpDB(db)
			if err := db.Apply(tc.r, nil); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
			if got := dumpDB(db); got != before {
				t.Errorf("a failed Apply changed the DB:\n%s\nwant\n%s", got, before)
			}
		})
	}
}

// TestApplyCallback: applied sees every record after it is applied, and
// its error is Apply's.
func TestApplyCallback(t *testing.T) {
	h := &recHook{}
	_, tb := newHookedTable(t, h)
	tb.Put(sKey("a"), numItem("a", 1))
	db := newDB(t, nil)
	var seen []string
	errStop := errors.New("stop")
	for _, r := range h.recs {
		err := db.Apply(r, func(r *Record) error {
			if db.TableByID("id-t") == nil { // applied first, outside the locks
				t.Error("callback before the table exists")
			}
			seen = append(seen, r.Kind.String())
			return errStop
		})
		if !errors.Is(err, errStop) {
			t.Errorf("got %v, want the callback's error", err)
		}
	}
	if want := []string{"create-table", "commit"}; !slices.Equal(seen, want) {
		t.Errorf("got %q, want %q", seen, want)
	}
}
