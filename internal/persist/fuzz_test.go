package persist

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

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
		if _, err := readSnapshot(db, bytes.NewReader(file), int64(len(file)), false, nil, nil); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v is not ErrCorrupt", err)
			}
			return
		}
		checkIndexes(t, db)
	})
}

// FuzzLogChain: a directory of log segments that may be sealed, naming
// the next or not, carry one database id or another, or be missing,
// with or without a snapshot before them. Whatever the files: the
// namespace opens or is refused, never panics; what opens holds records
// 1 to some n, each once (never a record after a gap); a refusal of
// missing or foreign files (ErrIncomplete) is lifted by AcceptLoss; and
// what opened opens again, without it, to the same records.
func FuzzLogChain(f *testing.F) {
	f.Add([]byte{3, 1, 0, 3, 1, 0, 2, 0, 0})           // three sealed segments, the last not
	f.Add([]byte{3, 1, 0, 3, 1, 0, 2, 0, 0, 0xff})     // the newest missing
	f.Add([]byte{3, 1, 0, 3, 1, 1, 2, 0, 0, 0x81})     // another database's
	f.Add([]byte{3, 1, 0, 3, 3, 0, 2, 0, 0, 0x12, 5})  // a snapshot, a missing middle
	f.Add([]byte{3, 0, 0, 3, 0, 0, 2, 0, 0, 0x40, 2})  // unsealed, a gap
	f.Add([]byte{3, 1, 0, 3, 1, 0, 2, 0, 0, 0x02, 10}) // a snapshot past the log
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		ns := filepath.Join(dir, SharedNamespace)
		require.NoError(t, os.MkdirAll(ns, 0o755))
		// Up to 4 segments of 3 bytes each: records, sealed (bit 0) and
		// its seal off by one (bit 1), database id (0: ours, 1: other,
		// 2: none, version 2). Then a byte of which segments are missing
		// (bit i) and whether a snapshot is written (0x80 unset: see
		// below), and a byte saying the snapshot's LSN.
		lsn := uint64(1)
		var ids = [3]uint64{7, 9, 0}
		for i := 0; i < 4 && len(b) >= 3; i++ {
			n, seal, idc := uint64(b[0]%4), b[1], b[2]%3
			b = b[3:]
			first := lsn
			v := uint32(formatVersion)
			if idc == 2 {
				v = versionTimes
			}
			file := appendHeader(nil, fileHeader{kind: kindSegment, version: v, base: first, db: ids[idc]})
			for range n {
				payload := binary.AppendVarint(nil, 0)
				payload, err := storage.AppendRecord(payload, &storage.Record{Kind: storage.RecordMeta, Key: fmt.Sprintf("r%d", lsn), Value: []byte("x")})
				require.NoError(t, err)
				fr := append(make([]byte, frameHeader), payload...)
				sealFrame(fr, lsn)
				file = append(file, fr...)
				lsn++
			}
			if seal&1 != 0 && v >= versionSealed {
				next := lsn
				if seal&2 != 0 {
					next++
				}
				file = appendSeal(file, next)
			}
			require.NoError(t, os.WriteFile(filepath.Join(ns, segName(first)), file, 0o644))
		}
		if len(b) > 0 {
			segs, _, err := listDir(ns)
			require.NoError(t, err)
			for i, s := range segs {
				if b[0]&(1<<i) != 0 {
					require.NoError(t, os.Remove(filepath.Join(ns, s.name)))
				}
			}
			if len(b) > 1 && b[0]&0x10 != 0 {
				// A snapshot holding records 1 to b[1] (some of them
				// perhaps not in the log any more), of our database.
				db := storage.NewDB(nil)
				for r := uint64(1); r <= uint64(b[1]); r++ {
					require.NoError(t, db.SetMeta(fmt.Sprintf("r%d", r), []byte("x")))
				}
				o, err := Options{}.withDefaults()
				require.NoError(t, err)
				_, _, err = writeSnapshot(&o, ns, db.Snapshot(nil), uint64(b[1]), ids[0], nil)
				require.NoError(t, err)
			}
		}
		records := func(db *storage.DB) uint64 {
			keys := db.MetaKeys()
			for r := uint64(1); r <= uint64(len(keys)); r++ {
				require.NotNil(t, db.Meta(fmt.Sprintf("r%d", r)), "records %v: not 1 to n", keys)
			}
			return uint64(len(keys))
		}
		open := func(o Options) (uint64, error) {
			o.Durability = None
			s, err := Open(dir, o)
			require.NoError(t, err)
			defer s.Close()
			db, err := s.DB(SharedNamespace)
			if err != nil {
				return 0, err
			}
			return records(db), nil
		}
		n, err := open(Options{})
		if errors.Is(err, ErrIncomplete) {
			n, err = open(Options{AcceptLoss: true})
		}
		if err != nil {
			require.NotErrorIs(t, err, ErrIncomplete)
			return
		}
		again, err := open(Options{})
		require.NoError(t, err)
		require.Equal(t, n, again)
	})
}
