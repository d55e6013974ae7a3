package persist

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Snapshot files: a namespace's DB at one LSN, written from a
// storage.Snapshot in the background and loaded at start-up.
//
//	file    = header(kind 'S', base: the LSN) { frame }
//	payload = 1 record | 4 order | 5 chunk | 3 piece | 2 end
//	order   = uvarint(index) uvarint(entries) { uvarint(item number) }
//	chunk   = { uvarint(len(stored record)) stored record }
//	end     = uvarint(tables) uvarint(items) uvarint(frames before it)
//
// The records are storage's binary form (storage.AppendRecord): first
// the DB's metadata, one RecordMeta per key; then per table, in name
// order, a RecordCreateTable (name, ID, key schema, index definitions,
// metadata) followed by its items in scan order. From format version 4
// (versionChunks) those are chunks of about snapChunkBytes of the
// table's stored records (storage.TableSnapshot.EachChunk, which says
// what a stored record is), preceded by each secondary index's order in
// frames of up to snapOrderRun numbers: numbering the items with an
// entry in scan order, their numbers in the index's order
// (storage.TableSnapshot.IndexOrder), entries the index's count. Before
// version 4 they are RecordCommits of up to snapChunkItems items, each a
// write of the item's stored image, and there is no order. Index
// entries are never written: loading fills the indexes from the items,
// loading their entries in the order written, checked, rather than
// sorting them (a wrong order costs the sort, never a wrong index). A chunk is loaded
// without a copy: the table's records view the frame's memory.
// After the tables come the sidecar's pieces (sidecar.go; format version
// 2), opaque bytes handed back to it at load. A file without its end
// frame, or whose counts differ, is not a snapshot.

// Snapshot payload types.
const (
	snapRecord = 1
	snapEnd    = 2
	snapPiece  = 3
	snapOrder  = 4
	snapChunk  = 5
)

// snapChunkItems and snapChunkBytes bound the items of one record.
const (
	snapChunkItems = 1024
	snapChunkBytes = 256 << 10
)

// snapOrderRun is the most positions of an index's order in one frame.
const snapOrderRun = 1 << 16

// snapName is the file name of the snapshot that holds every record up
// to lsn.
func snapName(lsn uint64) string { return fmt.Sprintf("snap-%016x.snap", lsn) }

// appender writes frames to a file through a buffer.
type appender struct {
	f     file
	hdr   fileHeader   // the file's header (kind and base set by writeAll)
	check func() error // called before each write: an error stops it (nil: none)
	off   int64
	buf   []byte
	seq   uint64
	frame []byte
}

func (a *appender) flush() error {
	if len(a.buf) == 0 {
		return nil
	}
	if a.check != nil {
		if err := a.check(); err != nil {
			return err
		}
	}
	if _, err := a.f.WriteAt(a.buf, a.off); err != nil {
		return err
	}
	a.off += int64(len(a.buf))
	a.buf = a.buf[:0]
	return nil
}

// frame appends one frame of payload type typ; fill appends the rest.
func (a *appender) add(typ byte, fill func([]byte) ([]byte, error)) error {
	fr := append(a.frame[:0], make([]byte, frameHeader)...)
	fr = append(fr, typ)
	fr, err := fill(fr)
	if err != nil {
		return err
	}
	if len(fr)-frameHeader > maxFrame {
		return fmt.Errorf("persist: snapshot frame of %d bytes", len(fr)-frameHeader)
	}
	sealFrame(fr, a.seq)
	a.seq++
	a.buf = append(a.buf, fr...)
	a.frame = fr
	if len(a.buf) >= 1<<20 {
		return a.flush()
	}
	return nil
}

// writeSnapshot writes snap, which holds every record up to lsn, as
// dir/snapName(lsn): into a temporary file, made durable, then renamed
// into place and the directory synced, so the file either is there whole
// or is not. It returns the file's name and size.
// side, when not nil, writes the sidecar's pieces (Sidecar.Capture).
// db is the namespace's database id. It stops, the file removed, when
// the free space falls below Options.ReserveBytes (space.go).
func writeSnapshot(opts *Options, dir string, snap *storage.Snapshot, lsn, db uint64, side func(emit func([]byte) error) error) (string, int64, error) {
	name := snapName(lsn)
	var a *appender
	err := replaceFile(opts.newFile, dir, name, func(f file) error {
		a = &appender{f: f, hdr: fileHeader{version: formatVersion, db: db}, check: func() error { return opts.spaceFor(dir, 0) }}
		return a.writeAll(snap, lsn, side)
	})
	if err != nil {
		return "", 0, fmt.Errorf("persist: writing snapshot %s: %w", name, err)
	}
	return name, a.off, nil
}

func (a *appender) writeAll(snap *storage.Snapshot, lsn uint64, side func(emit func([]byte) error) error) error {
	a.hdr.kind, a.hdr.base = kindSnapshot, lsn
	a.buf = appendHeader(a.buf, a.hdr)
	record := func(r *storage.Record) error {
		return a.add(snapRecord, func(b []byte) ([]byte, error) { return storage.AppendRecord(b, r) })
	}
	for _, k := range snap.MetaKeys() {
		if err := record(&storage.Record{Kind: storage.RecordMeta, Key: k, Value: snap.Meta(k)}); err != nil {
			return err
		}
	}
	var items uint64
	tables := snap.Tables()
	for _, ts := range tables {
		def := storage.TableDef{Name: ts.Name(), ID: ts.ID(), Schema: ts.KeySchema(), Indexes: ts.Indexes(), VectorIndexes: ts.VectorIndexes(), Meta: map[string][]byte{}}
		for _, k := range ts.MetaKeys() {
			def.Meta[k] = ts.Meta(k)
		}
		if err := record(&storage.Record{Kind: storage.RecordCreateTable, Table: def.ID, Def: &def}); err != nil {
			return err
		}
		var err error
		if a.hdr.version >= versionChunks {
			err = a.writeChunks(ts)
		} else {
			err = a.writeCommits(ts)
		}
		if err != nil {
			return err
		}
		items += uint64(ts.ItemCount())
	}
	if side != nil {
		err := side(func(p []byte) error {
			if len(p) == 0 {
				return nil
			}
			return a.add(snapPiece, func(b []byte) ([]byte, error) { return append(b, p...), nil })
		})
		if err != nil {
			return fmt.Errorf("sidecar: %w", err)
		}
	}
	frames := a.seq
	if err := a.add(snapEnd, func(b []byte) ([]byte, error) {
		b = binary.AppendUvarint(b, uint64(len(tables)))
		b = binary.AppendUvarint(b, items)
		return binary.AppendUvarint(b, frames), nil
	}); err != nil {
		return err
	}
	return a.flush()
}

// writeChunks writes the items of ts (version 4 on): each index's
// order, then the items as chunks of stored records.
func (a *appender) writeChunks(ts *storage.TableSnapshot) error {
	for i := range ts.Indexes() {
		order := ts.IndexOrder(i)
		for from := 0; from < len(order); from += snapOrderRun {
			run := order[from:min(from+snapOrderRun, len(order))]
			err := a.add(snapOrder, func(b []byte) ([]byte, error) {
				b = binary.AppendUvarint(b, uint64(i))
				b = binary.AppendUvarint(b, uint64(len(order)))
				for _, p := range run {
					b = binary.AppendUvarint(b, uint64(p))
				}
				return b, nil
			})
			if err != nil {
				return err
			}
		}
	}
	return ts.EachChunk(snapChunkBytes, func(c []byte) error {
		return a.add(snapChunk, func(b []byte) ([]byte, error) { return append(b, c...), nil })
	})
}

// writeCommits writes the items of ts as before version 4: RecordCommits
// of their images.
func (a *appender) writeCommits(ts *storage.TableSnapshot) error {
	chunk := &storage.Record{Kind: storage.RecordCommit}
	size := 0
	var err error
	flush := func() {
		if len(chunk.Writes) > 0 && err == nil {
			err = a.add(snapRecord, func(b []byte) ([]byte, error) { return storage.AppendRecord(b, chunk) })
			chunk.Writes, size = chunk.Writes[:0], 0
		}
	}
	ts.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
		chunk.Writes = append(chunk.Writes, storage.ItemWrite{Table: ts.ID(), Committed: storage.Committed{Key: e.Key(), New: e, HasNew: true}})
		size += e.Size()
		if len(chunk.Writes) >= snapChunkItems || size >= snapChunkBytes {
			flush()
		}
		return err == nil
	})
	flush()
	return err
}

// snapLoad is a snapshot file being loaded into a DB.
type snapLoad struct {
	db       *storage.DB
	deferIdx bool     // leave the tables' index entries to the DB (storage.DB.DeferIndexes)
	v        uint32   // the file's format version
	pieces   [][]byte // the sidecar's
	sideSeen bool     // a piece was read: no record may follow
	b        *storage.TableBuilder
	def      *storage.TableDef
	tables   uint64
	items    uint64
	commit   storage.Record // the commit parsed last, its array reused
	// order is the order of the table's index orderOf being read
	// (snapOrder frames), of orderLen positions in all; filled says
	// the table's items have begun, after which no order may come.
	order    []uint32
	size     int64 // the file's
	orderOf  int
	orderLen uint64
	filled   bool
}

// loadSnapshot loads the snapshot file at path into db, which must be
// empty, and returns its header (base: the LSN it holds every record up
// to) and the sidecar's pieces. Any damage fails it (wrapping
// ErrCorrupt, or ErrNewerFormat), leaving db partly loaded: the caller
// throws db away.
// deferIdx builds its tables without their index entries, for a db
// that defers them (storage.DB.DeferIndexes).
func loadSnapshot(db *storage.DB, path string, deferIdx bool, progress func(read, total int64, items int64)) (fileHeader, [][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileHeader{}, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fileHeader{}, nil, err
	}
	var pieces [][]byte
	h, err := readSnapshot(db, f, st.Size(), deferIdx, progress, &pieces)
	return h, pieces, err
}

// readSnapshot is loadSnapshot of the size bytes of r.
// The sidecar's pieces go to *pieces (nil: dropped).
func readSnapshot(db *storage.DB, r io.Reader, size int64, deferIdx bool, progress func(read, total int64, items int64), pieces *[][]byte) (fileHeader, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	hb := make([]byte, headerSize)
	if _, err := io.ReadFull(br, hb); err != nil {
		return fileHeader{}, fmt.Errorf("%w: snapshot header: %v", ErrCorrupt, err)
	}
	h, err := parseHeader(hb, kindSnapshot)
	if err != nil {
		return fileHeader{}, err
	}
	// A chunk's frame is read into memory the table keeps.
	fr := &frameReader{r: br, off: headerSize, size: size, alloc: storage.ChunkMemory}
	stop := make(chan struct{})
	frames := readAhead(fr, stop)
	defer func() {
		close(stop)
		for range frames { // the reader is done with r before it is closed
		}
	}()
	l := &snapLoad{db: db, v: h.version, deferIdx: deferIdx, size: size}
	for want := uint64(0); ; want++ {
		f := <-frames
		if f.err == io.EOF {
			return fileHeader{}, fmt.Errorf("%w: snapshot ends without its end frame (%d frames)", ErrCorrupt, want)
		}
		if f.err != nil {
			return fileHeader{}, fmt.Errorf("%w: frame %d at byte %d: %v", ErrCorrupt, want, f.off, f.err)
		}
		if f.seq != want {
			return fileHeader{}, fmt.Errorf("%w: frame %d numbered %d", ErrCorrupt, want, f.seq)
		}
		done, err := l.frame(f.payload, want)
		if err != nil {
			return fileHeader{}, fmt.Errorf("%w: frame %d at byte %d: %v", ErrCorrupt, want, f.off, err)
		}
		if progress != nil {
			progress(f.off, size, int64(l.items))
		}
		if done {
			if f.off != size {
				return fileHeader{}, fmt.Errorf("%w: %d bytes after the end frame", ErrCorrupt, size-f.off)
			}
			if pieces != nil {
				*pieces = l.pieces
			}
			return h, nil
		}
	}
}

// aheadFrame is a frame read ahead of the load (readAhead): what
// frameReader.next returned, and the offset after the frame (of the
// frame, at an error).
type aheadFrame struct {
	seq     uint64
	payload []byte
	off     int64
	err     error
}

// readAhead reads fr's frames on a goroutine of its own, each into
// memory of its own, while the caller loads the ones before: reading
// (copying the file's bytes into new memory, which the kernel backs, and
// checking their checksums) was about a fifth of a load
// (BenchmarkLoadDir), which a free core then takes off its time. It
// sends each frame, up to the first error (io.EOF included), until stop
// is closed, then closes the channel.
func readAhead(fr *frameReader, stop <-chan struct{}) <-chan aheadFrame {
	ch := make(chan aheadFrame, 4)
	go func() {
		defer close(ch)
		for {
			seq, p, err := fr.next()
			fr.detach()
			select {
			case ch <- aheadFrame{seq: seq, payload: p, off: fr.off, err: err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// frame loads one frame's payload; done after the end frame.
func (l *snapLoad) frame(p []byte, n uint64) (done bool, err error) {
	switch p[0] {
	case snapEnd:
		if err := l.endFrame(p[1:], n); err != nil {
			return false, err
		}
		return true, nil
	case snapPiece:
		if l.v < versionTimes || len(p) < 2 {
			return false, fmt.Errorf("payload type %d", p[0])
		}
		if err := l.finishTable(); err != nil {
			return false, err
		}
		l.sideSeen = true
		l.pieces = append(l.pieces, bytes.Clone(p[1:]))
		return false, nil
	case snapOrder:
		return false, l.orderFrame(p[1:])
	case snapChunk:
		if l.v < versionChunks || l.b == nil || len(p) < 2 || l.order != nil {
			return false, errors.New("a chunk of items out of place")
		}
		l.filled = true
		n, err := l.b.AddChunk(p[1:]) // the table keeps the chunk: readAhead detached it
		l.items += uint64(n)
		return false, err
	case snapRecord:
		if l.sideSeen {
			return false, errors.New("a record after the sidecar's pieces")
		}
		return false, l.recordFrame(p[1:])
	}
	return false, fmt.Errorf("payload type %d", p[0])
}

// endFrame checks the end frame's payload p, after n frames: its counts
// of tables, items and frames are those read.
func (l *snapLoad) endFrame(p []byte, n uint64) error {
	if err := l.finishTable(); err != nil {
		return err
	}
	var v [3]uint64
	rest := p
	for i := range v {
		x, k := binary.Uvarint(rest)
		if k <= 0 {
			return errors.New("bad end frame")
		}
		v[i], rest = x, rest[k:]
	}
	if len(rest) != 0 || v[0] != l.tables || v[1] != l.items || v[2] != n {
		return fmt.Errorf("end frame says %d tables, %d items, %d frames; read %d, %d, %d", v[0], v[1], v[2], l.tables, l.items, n)
	}
	return nil
}

// recordFrame loads a snapRecord frame's payload p: metadata, a table's
// creation, or (before chunks) a commit of its items.
func (l *snapLoad) recordFrame(p []byte) error {
	// Parsed without a copy (nothing keeps a record frame's memory): a
	// commit's images go to the TableBuilder, which copies them; any
	// other record, whose strings are kept, is parsed again with its own
	// copy. Commits are parsed into one Record, reusing its
	// array of writes (BenchmarkLoadDir: see docs/persistence.md).
	r := &l.commit
	err := storage.ParseRecordTransientInto(p, r)
	if err == nil && r.Kind != storage.RecordCommit {
		r, err = storage.ParseRecord(p)
	}
	if err != nil {
		return err
	}
	switch r.Kind {
	case storage.RecordMeta:
		if r.Table != "" || l.def != nil {
			return errors.New("table metadata record in a snapshot")
		}
		return l.db.SetMeta(r.Key, r.Value)
	case storage.RecordCreateTable:
		if err := l.finishTable(); err != nil {
			return err
		}
		if l.b, err = storage.NewTableBuilder(*r.Def); err != nil {
			return err
		}
		if l.deferIdx {
			l.b.DeferIndexes()
		}
		l.def = r.Def
		return nil
	case storage.RecordCommit:
		return l.commitFrame(r)
	}
	return fmt.Errorf("%s record in a snapshot", r.Kind)
}

// commitFrame loads a commit of the items of the table being built, as
// snapshots before chunks hold them.
func (l *snapLoad) commitFrame(r *storage.Record) error {
	if l.v >= versionChunks {
		return errors.New("a commit of items in a snapshot of chunks")
	}
	if l.b == nil {
		return errors.New("items before their table")
	}
	for _, w := range r.Writes {
		if w.Table != l.def.ID || !w.HasNew || w.HadOld {
			return fmt.Errorf("item write of table %q in table %q's items", w.Table, l.def.ID)
		}
		if err := l.b.Add(w.New); err != nil {
			return err
		}
		l.items++
	}
	return nil
}

// orderFrame reads a snapOrder frame's payload: a run of the order of
// an index of the table being built, each index's before the next's,
// all before its items.
func (l *snapLoad) orderFrame(p []byte) error {
	if l.v < versionChunks || l.b == nil || l.filled {
		return errors.New("an index order out of place")
	}
	i, k := binary.Uvarint(p)
	if k <= 0 {
		return errors.New("bad index order")
	}
	total, k2 := binary.Uvarint(p[k:])
	if k2 <= 0 || i >= uint64(len(l.def.Indexes)) {
		return errors.New("bad index order")
	}
	p = p[k+k2:]
	switch {
	case l.order == nil:
		if int(i) < l.orderOf {
			return errors.New("index orders out of order")
		}
		l.orderOf, l.orderLen = int(i), total
		// Each position takes a byte of the file at least.
		l.order = make([]uint32, 0, min(total, uint64(l.size)))
	case int(i) != l.orderOf || total != l.orderLen:
		return errors.New("an index order cut short")
	}
	for len(p) > 0 {
		v, k := binary.Uvarint(p)
		if k <= 0 || v > math.MaxUint32 || uint64(len(l.order)) >= l.orderLen {
			return errors.New("bad index order")
		}
		l.order = append(l.order, uint32(v))
		p = p[k:]
	}
	if uint64(len(l.order)) == l.orderLen {
		l.b.IndexOrder(l.orderOf, l.order)
		l.order = nil
		l.orderOf++
	}
	return nil
}

// finishTable makes the table being built a table of the DB.
func (l *snapLoad) finishTable() error {
	if l.order != nil {
		return errors.New("an index order cut short")
	}
	if l.b == nil {
		return nil
	}
	snap, err := l.b.Finish()
	if err != nil {
		return err
	}
	if _, err := l.db.RestoreTable(l.def.Name, l.def.ID, snap); err != nil {
		return err
	}
	l.b, l.def = nil, nil
	l.orderOf, l.filled = 0, false
	l.tables++
	return nil
}
