package persist

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The parsers of the files: frames as they come (FuzzFrames), and the
// records inside a segment or a snapshot, behind frames whose checksums
// are right (the fuzzer would not get past them otherwise): whatever the
// bytes, loading fails with an error or loads, never panics, and what
// loads is consistent.

// FuzzFrames: the frame reader never panics, reads only whole frames
// whose checksums are right, and stops at the first that is not.
func FuzzFrames(f *testing.F) {
	for _, p := range seedPayloads(f) {
		fr := append(make([]byte, frameHeader), p...)
		sealFrame(fr, 1)
		f.Add(fr)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr := &frameReader{r: bytes.NewReader(b), size: int64(len(b))}
		for {
			_, p, err := fr.next()
			if err == io.EOF {
				if fr.off != int64(len(b)) {
					t.Fatalf("clean end at %d of %d bytes", fr.off, len(b))
				}
				return
			}
			if err != nil {
				if !errors.Is(err, errTorn) {
					t.Fatalf("error %v is not errTorn", err)
				}
				return
			}
			if len(p) == 0 || fr.off > int64(len(b)) {
				t.Fatalf("frame of %d bytes ending at %d of %d", len(p), fr.off, len(b))
			}
		}
	})
}

// seedPayloads returns the record payloads of a workload's log.
func seedPayloads(tb testing.TB) [][]byte {
	dir := tb.TempDir()
	s, db := mustOpen(tb, dir, Options{Durability: None, CompactBytes: -1})
	runWorkload(tb, db, newModel(), 3, 0, 40)
	s.Close()
	segs, _, _ := listDir(nsDir(dir))
	var out [][]byte
	for _, seg := range segs {
		b, err := os.ReadFile(filepath.Join(nsDir(dir), seg.name))
		if err != nil {
			tb.Fatal(err)
		}
		fr := &frameReader{r: bytes.NewReader(b[headerSize:]), off: headerSize, size: int64(len(b))}
		for {
			_, p, err := fr.next()
			if err != nil {
				break
			}
			out = append(out, bytes.Clone(p))
		}
	}
	return out
}

// splitPayloads cuts b into payloads, each prefixed by its length (a
// uvarint); the last takes what is left.
func splitPayloads(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n == 0 || n > uint64(len(b)-k) {
			return append(out, b)
		}
		out = append(out, b[k:k+int(n)])
		b = b[k+int(n):]
	}
	return out
}

// joinPayloads is splitPayloads' inverse, for seeds.
func joinPayloads(ps [][]byte) []byte {
	var b []byte
	for _, p := range ps {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	return b
}

// fileOf builds a segment or snapshot file of the payloads, sealed.
func fileOf(kind byte, base uint64, ps [][]byte) []byte {
	b := appendHeader(nil, fileHeader{kind: kind, version: formatVersion, base: base})
	for i, p := range ps {
		fr := append(make([]byte, frameHeader), p...)
		seq := uint64(i)
		if kind == kindSegment {
			seq += base
		}
		sealFrame(fr, seq)
		b = append(b, fr...)
	}
	return b
}

// FuzzSegment: a segment of records with right checksums opens as a
// namespace or fails with an error; what opens has consistent indexes
// and takes writes.
func FuzzSegment(f *testing.F) {
	ps := seedPayloads(f)
	for i := 0; i < len(ps); i += 8 {
		f.Add(joinPayloads(ps[i:min(i+8, len(ps))]))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		ns := filepath.Join(dir, SharedNamespace)
		if err := os.MkdirAll(ns, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ns, segName(1)), fileOf(kindSegment, 1, splitPayloads(b)), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(dir, Options{Durability: None})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		db, err := s.DB(SharedNamespace)
		if err != nil {
			return
		}
		checkIndexes(t, db)
		if err := db.SetMeta("after", []byte("x")); err != nil {
			t.Fatalf("a write after loading: %v", err)
		}
	})
}

// FuzzSnapshot: a snapshot file of frames with right checksums loads or
// fails with ErrCorrupt; what loads has consistent indexes.
func FuzzSnapshot(f *testing.F) {
	dir := f.TempDir()
	s, db := mustOpen(f, dir, Options{Durability: None, CompactBytes: -1})
	runWorkload(f, db, newModel(), 5, 0, 40)
	if err := s.Compact(SharedNamespace); err != nil {
		f.Fatal(err)
	}
	s.Close()
	_, snaps, _ := listDir(nsDir(dir))
	b, err := os.ReadFile(filepath.Join(nsDir(dir), snaps[0].name))
	if err != nil {
		f.Fatal(err)
	}
	var ps [][]byte
	fr := &frameReader{r: bytes.NewReader(b[headerSize:]), off: headerSize, size: int64(len(b))}
	for {
		_, p, err := fr.next()
		if err != nil {
			break
		}
		ps = append(ps, bytes.Clone(p))
	}
	f.Add(joinPayloads(ps))
	f.Fuzz(func(t *testing.T, b []byte) {
		file := fileOf(kindSnapshot, 9, splitPayloads(b))
		db := storage.NewDB(nil)
		if _, err := readSnapshot(db, bytes.NewReader(file), int64(len(file)), nil, nil); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v is not ErrCorrupt", err)
			}
			return
		}
		checkIndexes(t, db)
	})
}
