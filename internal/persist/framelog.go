package persist

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Frame logs: append-only logs of opaque payloads in a side directory
// (sidefiles.go), framed as the namespace's log (frame.go: CRC-32C per
// frame, numbered without gaps), in segments named by their first frame
// (<prefix>-<seq %016x>.alog, header kind 'A'). Loading reads every
// segment in order and stops at the first torn or damaged frame or gap:
// the log is cut there (the segment truncated, later segments removed),
// so it holds every whole frame before the damage. A log opened again
// starts a new segment.

const kindSideLog = 'A'

// frameLogSegmentBytes is the size past which a frame log starts a new
// segment.
const frameLogSegmentBytes = 16 << 20

// FrameLog is an open frame log. Its methods are safe for concurrent use.
type FrameLog struct {
	d      *SideDir
	prefix string

	// mu guards the fields below. Append takes it (the emulator calls
	// Append under storage's locks); no fsync runs under it.
	mu      sync.Mutex
	f       file
	fname   string
	off     int64
	next    uint64
	segs    []segFile // every segment, oldest first; the last is f
	closing []file    // rotated segments not yet synced and closed
	dirty   bool      // written since the last Sync
	newSeg  bool      // a segment was created since the last Sync
	broken  error
	closed  bool

	syncMu sync.Mutex // one Sync at a time
}

// OpenLog loads the frame log prefix: replay is called with each whole
// frame in order (seq, payload valid only during the call); an error
// from it stops the load and is returned. The next frame appended is
// numbered after the last one read, and at least first.
func (d *SideDir) OpenLog(prefix string, first uint64, replay func(seq uint64, payload []byte) error) (*FrameLog, error) {
	if !validFile(prefix) || strings.Contains(prefix, ".") {
		return nil, fmt.Errorf("%w: %q", ErrBadName, prefix)
	}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return nil, err
	}
	l := &FrameLog{d: d, prefix: prefix, next: first}
	segs, err := l.list()
	if err != nil {
		return nil, err
	}
	last := uint64(0)
	for i, s := range segs {
		if last != 0 && s.first != last+1 {
			l.dropFrom(segs[i:])
			break
		}
		end, n, torn, err := l.replaySegment(s, replay)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			last = s.first + n - 1
		} else if last == 0 {
			last = s.first - 1
		}
		if torn {
			if err := truncateSync(filepath.Join(d.dir, s.name), end); err != nil {
				return nil, err
			}
			l.segs = append(l.segs, s)
			l.dropFrom(segs[i+1:])
			break
		}
		l.segs = append(l.segs, s)
	}
	if last+1 > l.next {
		l.next = last + 1
	}
	if n := len(l.segs); n > 0 && l.segs[n-1].first == l.next {
		l.segs = l.segs[:n-1] // empty: the new segment takes its name
	}
	f, name, err := l.create(l.next)
	if err != nil {
		return nil, err
	}
	l.f, l.fname, l.off = f, name, headerSize
	l.segs = append(l.segs, segFile{name: name, first: l.next})
	return l, syncDir(d.dir)
}

// segName is the name of the segment whose first frame is seq.
func (l *FrameLog) segName(seq uint64) string { return fmt.Sprintf("%s-%016x.alog", l.prefix, seq) }

// list returns the log's segments in order.
func (l *FrameLog) list() ([]segFile, error) {
	names, err := l.d.List(".alog")
	if err != nil {
		return nil, err
	}
	var segs []segFile
	for _, n := range names {
		var seq uint64
		rest, ok := strings.CutPrefix(n, l.prefix+"-")
		if !ok || len(rest) != len("0000000000000000.alog") || !scanHex(rest, "%016x.alog", &seq) || l.segName(seq) != n {
			continue
		}
		segs = append(segs, segFile{name: n, first: seq})
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].first < segs[j].first })
	return segs, nil
}

// replaySegment hands seg's frames to replay. It returns where its whole
// frames end, how many there are, and whether damage ends it early.
func (l *FrameLog) replaySegment(seg segFile, replay func(uint64, []byte) error) (int64, uint64, bool, error) {
	f, err := os.Open(filepath.Join(l.d.dir, seg.name))
	if err != nil {
		return 0, 0, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, false, err
	}
	hb := make([]byte, headerSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return 0, 0, true, nil
	}
	h, err := parseHeader(hb, kindSideLog)
	if errors.Is(err, ErrNewerFormat) {
		return 0, 0, false, fmt.Errorf("%s: %w", seg.name, err)
	}
	if err != nil || h.base != seg.first {
		return 0, 0, true, nil
	}
	fr := &frameReader{r: bufio.NewReaderSize(f, 1<<20), off: headerSize, size: st.Size()}
	var n uint64
	for {
		at := fr.off
		seq, payload, err := fr.next()
		if err == io.EOF {
			return fr.off, n, false, nil
		}
		if err != nil || seq != seg.first+n {
			return at, n, true, nil
		}
		if err := replay(seq, payload); err != nil {
			return 0, 0, false, err
		}
		n++
	}
}

// dropFrom removes segments that follow damage or a gap.
func (l *FrameLog) dropFrom(segs []segFile) {
	for _, s := range segs {
		os.Remove(filepath.Join(l.d.dir, s.name))
	}
}

// create creates the segment whose first frame is seq, header written.
func (l *FrameLog) create(seq uint64) (file, string, error) {
	name := l.segName(seq)
	path := filepath.Join(l.d.dir, name)
	f, err := l.d.opts.newFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		return nil, "", err
	}
	if _, err := f.WriteAt(appendHeader(nil, fileHeader{kind: kindSideLog, version: sideVersion, base: seq}), 0); err != nil {
		f.Close()
		os.Remove(path)
		return nil, "", err
	}
	return f, name, nil
}

// Append writes payload as the next frame (one write; not synced: Sync)
// and returns its number. A failed write is cut off again; if that fails
// too the log takes no more frames.
func (l *FrameLog) Append(payload []byte) (uint64, error) {
	if len(payload) == 0 || len(payload) > maxFrame {
		return 0, fmt.Errorf("persist: frame of %d bytes", len(payload))
	}
	frame := make([]byte, frameHeader+len(payload))
	copy(frame[frameHeader:], payload)
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.broken != nil:
		return 0, l.broken
	case l.closed:
		return 0, errClosed
	}
	if l.off > headerSize && l.off+int64(len(frame)) > frameLogSegmentBytes {
		if err := l.rotateLocked(); err != nil {
			return 0, err
		}
	}
	seq := l.next
	sealFrame(frame, seq)
	if _, err := l.f.WriteAt(frame, l.off); err != nil {
		if terr := l.f.Truncate(l.off); terr != nil {
			l.broken = fmt.Errorf("persist: frame log %s: a failed append could not be undone: %v", l.fname, terr)
		}
		return 0, fmt.Errorf("persist: appending to %s: %w", l.fname, err)
	}
	l.off += int64(len(frame))
	l.next++
	l.dirty = true
	return seq, nil
}

// Next is the number the next frame appended gets.
func (l *FrameLog) Next() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.next
}

// Rotate starts a new segment, if the active one holds any frame.
func (l *FrameLog) Rotate() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.off == headerSize || l.closed || l.broken != nil {
		return nil
	}
	return l.rotateLocked()
}

func (l *FrameLog) rotateLocked() error {
	f, name, err := l.create(l.next)
	if err != nil {
		return err
	}
	l.closing = append(l.closing, l.f)
	l.f, l.fname, l.off = f, name, headerSize
	l.segs = append(l.segs, segFile{name: name, first: l.next})
	l.dirty, l.newSeg = true, true
	return nil
}

// Sync makes every frame appended so far durable (with the store's
// durability None it only closes rotated segments).
func (l *FrameLog) Sync() error {
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	l.mu.Lock()
	cur, closing, dirty, newSeg := l.f, l.closing, l.dirty, l.newSeg
	l.closing, l.dirty, l.newSeg = nil, false, false
	l.mu.Unlock()
	var err error
	for _, f := range closing {
		if l.d.Durable() {
			err = errors.Join(err, f.Sync())
		}
		f.Close()
	}
	if dirty && l.d.Durable() && cur != nil {
		err = errors.Join(err, cur.Sync())
	}
	if newSeg && l.d.Durable() {
		err = errors.Join(err, syncDir(l.d.dir))
	}
	return err
}

// DropThrough removes the segments whose frames are all numbered seq or
// less (those a newer table file holds), never the active one.
func (l *FrameLog) DropThrough(seq uint64) error {
	l.mu.Lock()
	var drop []segFile
	for len(l.segs) > 1 && l.segs[1].first <= seq+1 {
		drop = append(drop, l.segs[0])
		l.segs = l.segs[1:]
	}
	l.mu.Unlock()
	for _, s := range drop {
		if err := os.Remove(filepath.Join(l.d.dir, s.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if len(drop) > 0 {
		return syncDir(l.d.dir)
	}
	return nil
}

// Close syncs and closes the log.
func (l *FrameLog) Close() error {
	err := l.Sync()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	return errors.Join(err, l.f.Close())
}

// Remove closes the log and removes its segments.
func (l *FrameLog) Remove() error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		for _, f := range l.closing {
			f.Close()
		}
		l.closing = nil
		l.f.Close()
	}
	segs := l.segs
	l.segs = nil
	l.mu.Unlock()
	var err error
	for _, s := range segs {
		if e := os.Remove(filepath.Join(l.d.dir, s.name)); e != nil && !errors.Is(e, os.ErrNotExist) {
			err = errors.Join(err, e)
		}
	}
	return errors.Join(err, syncDir(l.d.dir))
}
