package persist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestSideTableFile writes a table file and reads it back: the same
// items and metadata; a damaged file is ErrCorrupt.
func TestSideTableFile(t *testing.T) {
	st, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, err := st.SideDir("ns", "backups")
	if err != nil {
		t.Fatal(err)
	}
	db := storage.NewDB(nil)
	tbl, err := db.CreateTable(storage.TableDef{Name: "t", ID: "id1", Schema: wlTables[0].ks})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		k := storage.Key{Partition: storage.S(fmt.Sprint("k", i))}
		if _, err := tbl.Put(k, storage.Item{"pk": k.Partition, "v": storage.S(fmt.Sprint(i))}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.WriteTable("b.backup", tbl.Snapshot(), map[string][]byte{"x": []byte("y")}); err != nil {
		t.Fatal(err)
	}
	ts, meta, err := d.ReadTable("b.backup")
	if err != nil {
		t.Fatal(err)
	}
	if got := ts.ItemCount(); got != 100 || string(meta["x"]) != "y" || ts.Name() != "t" || ts.ID() != "id1" {
		t.Errorf("read back: got %d items, meta %q, %s/%s; want 100, y, t/id1", got, meta["x"], ts.Name(), ts.ID())
	}
	if got, want := ts.SizeBytes(), tbl.SizeBytes(); got != want {
		t.Errorf("size: got %d, want %d", got, want)
	}
	names, err := d.List(".backup")
	if err != nil || len(names) != 1 || names[0] != "b.backup" {
		t.Errorf("List: got %v, %v; want [b.backup]", names, err)
	}
	path := filepath.Join(d.Dir(), "b.backup")
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 0xff
	os.WriteFile(path, b, 0o644)
	if _, _, err := d.ReadTable("b.backup"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a damaged file: got %v, want ErrCorrupt", err)
	}
	if err := d.Remove("b.backup"); err != nil {
		t.Fatal(err)
	}
	if names, _ := d.List(".backup"); len(names) != 0 {
		t.Errorf("after Remove: got %v", names)
	}
	if _, err := d.WriteTable("../x", tbl.Snapshot(), nil); !errors.Is(err, ErrBadName) {
		t.Errorf("a path as a name: got %v, want ErrBadName", err)
	}
}

// TestFrameLog appends, reopens, cuts a torn tail and drops covered
// segments.
func TestFrameLog(t *testing.T) {
	st, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, _ := st.SideDir("ns", "pitr")
	read := func() ([]uint64, []string, *FrameLog) {
		t.Helper()
		var seqs []uint64
		var payloads []string
		l, err := d.OpenLog("h_1", 1, func(seq uint64, p []byte) error {
			seqs = append(seqs, seq)
			payloads = append(payloads, string(p))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return seqs, payloads, l
	}
	_, _, l := read()
	for i := range 5 {
		if seq, err := l.Append([]byte(fmt.Sprint("p", i))); err != nil || seq != uint64(i+1) {
			t.Fatalf("Append %d: got %d, %v", i, seq, err)
		}
	}
	if err := l.Rotate(); err != nil {
		t.Fatal(err)
	}
	for i := 5; i < 8; i++ {
		l.Append([]byte(fmt.Sprint("p", i)))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	seqs, payloads, l := read()
	if len(seqs) != 8 || seqs[7] != 8 || payloads[7] != "p7" {
		t.Fatalf("reopened: got %v %v, want 1..8", seqs, payloads)
	}
	if seq, _ := l.Append([]byte("p8")); seq != 9 {
		t.Errorf("next after reopening: got %d, want 9", seq)
	}
	l.Close()

	// A torn last frame is cut; the frames before it stay.
	segs, _ := d.List(".alog")
	last := filepath.Join(d.Dir(), segs[len(segs)-1])
	b, _ := os.ReadFile(last)
	os.WriteFile(last, b[:len(b)-1], 0o644)
	seqs, _, l = read()
	if len(seqs) != 8 {
		t.Errorf("after a torn frame: got %v, want 1..8", seqs)
	}
	// Segments wholly covered go; the one holding frame 7 stays.
	if err := l.DropThrough(6); err != nil {
		t.Fatal(err)
	}
	l.Close()
	seqs, _, l = read()
	if len(seqs) == 0 || seqs[0] != 6 || seqs[len(seqs)-1] != 8 {
		t.Errorf("after DropThrough(6): got %v, want 6..8", seqs)
	}
	if err := l.Remove(); err != nil {
		t.Fatal(err)
	}
	if segs, _ := d.List(".alog"); len(segs) != 0 {
		t.Errorf("after Remove: %v", segs)
	}
}

// FuzzFrameLog opens a frame log whose one segment holds arbitrary bytes
// after a valid header: whatever they are, it opens (cutting what does
// not read back) or fails with an error, never panics, and appends
// after what it kept.
func FuzzFrameLog(f *testing.F) {
	seg := appendHeader(nil, fileHeader{kind: kindSideLog, version: formatVersion, base: 1})
	frame := make([]byte, frameHeader+3)
	copy(frame[frameHeader:], "abc")
	sealFrame(frame, 1)
	f.Add(frame)
	f.Add(append(frame[:len(frame):len(frame)], 1, 2, 3))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		dir := t.TempDir()
		d := &SideDir{dir: dir, opts: &Options{newFile: openOSFile}}
		if err := os.WriteFile(filepath.Join(dir, "h_1-0000000000000001.alog"), append(append([]byte(nil), seg...), body...), 0o644); err != nil {
			t.Fatal(err)
		}
		var n uint64
		l, err := d.OpenLog("h_1", 1, func(seq uint64, p []byte) error {
			n++
			if seq != n || len(p) == 0 {
				t.Fatalf("frame %d numbered %d, %d bytes", n, seq, len(p))
			}
			return nil
		})
		if err != nil {
			return
		}
		defer l.Close()
		if seq, err := l.Append([]byte("x")); err != nil || seq != n+1 {
			t.Fatalf("append after %d frames: got %d, %v", n, seq, err)
		}
	})
}
