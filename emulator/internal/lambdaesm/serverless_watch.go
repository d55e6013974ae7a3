package lambdaesm

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A service file's mappings kept in step with what its variables name
// (LoadServerless). A project's first run goes: the project made (its
// .env from a template, naming another project's stream or none), the
// emulator started, the tables made by a migration (which writes their
// stream ARNs into .env), then serverless-offline. So the file is read
// again whenever a table's stream is made (the stream handlers' change
// signal) and, while an event is still waiting, whenever the .env file
// (or the service file) changes, looked at every filePoll. Each event:
//
//   - whose arn names a table that has a stream: its mapping follows that
//     table (by name: it moves to the table's new stream when the table
//     is made again);
//   - whose arn names a table that does not exist (a stale ARN from
//     another project, as the mbc-cqrs-serverless template ships
//     local-test-cli-sample-command): its mapping follows the table whose
//     name ends with the same table part, after the stage and app prefix
//     the tables with streams share (local-myapp-sample-command), when one
//     table alone fits; else it waits for the named table, and the log
//     says so (and names the tables that fit, when several do);
//   - whose variable is unset: it waits, and the log says so.
//
// A mapping made stays as it is when its event's variable is unset again
// (a .env being rewritten), and moves, keeping its UUID, when the event
// names another table that has a stream (or its own never came), read
// from that stream's start: the mapping was there before the stream.

// filePoll is how often the files of a service file with an event still
// waiting are looked at.
const filePoll = time.Second

// slsWatch is a service file read, its events' mappings and what was
// said of each.
type slsWatch struct {
	m      *Manager
	path   string
	getenv func(string) string
	stamps []fileStamp

	bound map[string]*slsBound // by event (function and index)
}

// slsBound is an event's mapping and the last line logged of it.
type slsBound struct {
	uuid  string
	table string
	said  string
}

// fileStamp is what a file looked like: changed when it appears, goes,
// or its size or time of change differs.
type fileStamp struct {
	path  string
	ok    bool
	size  int64
	mtime time.Time
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{path: path}
	}
	return fileStamp{path: path, ok: true, size: fi.Size(), mtime: fi.ModTime()}
}

// SetLogger makes l hear what the stream handlers' files do after the
// start (a service file's events bound, waiting); nil: discard.
func (m *Manager) SetLogger(l *slog.Logger) {
	m.mu.Lock()
	m.log = l
	m.mu.Unlock()
}

func (m *Manager) logger() *slog.Logger {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return m.log
}

// LoadServerless reads a service file's stream events, makes their
// mappings, and keeps them in step with the file's variables until the
// Manager closes (above). It returns why events were left out or wait,
// at the start; later changes go to the logger (SetLogger).
func (m *Manager) LoadServerless(path string, getenv func(string) string) ([]string, error) {
	w := &slsWatch{m: m, path: path, getenv: getenv, bound: map[string]*slsBound{}}
	before := w.files(&slsFile{})
	f, err := readServerless(path, getenv)
	if err != nil {
		return nil, err
	}
	w.stamps = w.restamp(before, f)
	notes, waiting, err := w.sync(f)
	if err != nil {
		return notes, err
	}
	go w.run(waiting)
	return notes, nil
}

// files are the files whose change may change what the service file's
// events name.
func (w *slsWatch) files(f *slsFile) []fileStamp {
	out := []fileStamp{stampOf(w.path)}
	if f.dotenv != "" {
		dir := f.dotenv[:strings.LastIndexByte(f.dotenv, os.PathSeparator)+1]
		out = append(out, stampOf(f.dotenv), stampOf(dir+".env")) // .env.STAGE may appear beside .env
	}
	return out
}

// again stamps the files stamped last, before they are read again: a
// change made while they are read is then seen at the next look.
func (w *slsWatch) again() []fileStamp {
	out := make([]fileStamp, len(w.stamps))
	for i, s := range w.stamps {
		out[i] = stampOf(s.path)
	}
	return out
}

// restamp is the stamps of f's files: those of before (taken before f
// was read), and for a file f reads that before did not hold, none (so
// the next look reads the files once more if it exists).
func (w *slsWatch) restamp(before []fileStamp, f *slsFile) []fileStamp {
	out := w.files(f)
	for i := range out {
		stamped := fileStamp{path: out[i].path}
		for _, b := range before {
			if b.path == out[i].path {
				stamped = b
			}
		}
		out[i] = stamped
	}
	return out
}

// changed reports whether any of the files changed since they were
// stamped.
func (w *slsWatch) changed() bool {
	for _, s := range w.stamps {
		if stampOf(s.path) != s {
			return true
		}
	}
	return false
}

// run reads the file again when a stream is made and, while an event
// waits, when its files change.
func (w *slsWatch) run(waiting bool) {
	for {
		made, _ := w.m.streamsMade()
		var tick <-chan time.Time
		var t *time.Timer
		if waiting || made == nil { // the files are looked at only while an event waits (or with no signal)
			t = time.NewTimer(filePoll)
			tick = t.C
		}
		quiet := false
		select {
		case <-w.m.quit:
			if t != nil {
				t.Stop()
			}
			return
		case <-made:
		case <-tick:
			quiet = !w.changed() && made != nil
		}
		if t != nil {
			t.Stop()
		}
		if quiet {
			continue
		}
		if !waiting && made != nil { // every event bound: only a table made again matters, and the mapping follows it
			continue
		}
		before := w.again()
		f, err := readServerless(w.path, w.getenv)
		if err != nil {
			w.m.logger().Warn("-serverless: the service file cannot be read again; its mappings stay as they are", "file", w.path, "err", err)
			w.stamps = before
			continue
		}
		w.stamps = w.restamp(before, f)
		notes, still, err := w.sync(f)
		for _, n := range notes {
			w.m.logger().Info("-serverless: " + n)
		}
		if err != nil {
			w.m.logger().Warn("-serverless: a stream event's mapping cannot be made", "err", err)
		}
		waiting = still
	}
}

// sync makes, or moves, the mapping of each of f's events to the table
// it names (above); it returns what it did or what waits, each said once,
// and whether an event still waits.
func (w *slsWatch) sync(f *slsFile) (notes []string, waiting bool, err error) {
	now := w.m.svc.Now()
	tables := w.m.streamTables(now)
	seen := map[string]int{}
	for i := range f.events {
		ev := &f.events[i]
		key := ev.function + "\x00" + strconv.Itoa(ev.index)
		b := w.bound[key]
		if b == nil {
			b = &slsBound{}
			w.bound[key] = b
		}
		say := func(format string, args ...any) {
			msg := ev.describe(w.path) + ": " + fmt.Sprintf(format, args...)
			if msg != b.said {
				b.said = msg
				notes = append(notes, msg)
			}
		}
		if ev.why != "" {
			if b.uuid != "" {
				say("its arn names no table now (%s); its mapping stays on table %s", ev.why, b.table)
				continue
			}
			waiting = true
			say("%s: left out until it names a table", ev.why)
			continue
		}
		named := *ev.spec.TableName
		target := named
		if !tables[named] {
			waiting = true
			switch fits := staleMatches(named, tables); len(fits) {
			case 1:
				target = fits[0]
				say("table %s does not exist: its arn is taken for table %s (the same table after the stage and app prefix)", named, target)
			case 0:
				say("table %s does not exist yet: its mapping waits for it", named)
			default:
				say("table %s does not exist, and its table part fits several tables (%s): its mapping waits for table %s", named, strings.Join(fits, ", "), named)
			}
		}
		spec := ev.spec
		spec.TableName = &target
		origin := originOf("serverless", &spec, seen)
		switch {
		case b.uuid == "":
			c, err := w.m.createWithOrigin(&spec, origin)
			if err != nil {
				return notes, waiting, fmt.Errorf("%s: function %s: %w", w.path, ev.function, err)
			}
			b.uuid, b.table = c.UUID, target
			if b.said != "" && target == named && tables[target] {
				say("its mapping follows table %s", target)
			}
		case b.table != target && (tables[target] || !tables[b.table]):
			if w.m.rebind(b.uuid, target, origin) {
				say("its mapping %s moves from table %s to table %s", b.uuid, b.table, target)
				b.table = target
			}
		}
	}
	return notes, waiting, nil
}

// streamTables are the names of the tables with an enabled stream, in any
// namespace.
func (m *Manager) streamTables(now time.Time) map[string]bool {
	out := map[string]bool{}
	for _, s := range m.streams(now) {
		if st, _ := s.State(now); st == "ENABLED" {
			out[s.TableName()] = true
		}
	}
	return out
}

// staleMatches returns the tables that a table name that does not exist
// stands for: the tables with a stream share a stage and app prefix (the
// longest run of leading dash-separated parts they all have, taken when
// two or more tables share at least one such part: local-myapp- of
// local-myapp-sample-command and local-myapp-tasks), and a table fits
// when name ends with its table part after that prefix, behind a prefix
// of its own (local-test-cli-sample-command fits local-myapp-sample-command).
// It returns every table that fits, in name order: the name stands for
// one only when one alone fits (local-old-shop-orders fits both
// local-app-orders and local-app-shop-orders).
func staleMatches(name string, tables map[string]bool) []string {
	prefix := sharedPrefix(tables)
	if prefix == "" {
		return nil
	}
	var fits []string
	for t := range tables {
		part, ok := strings.CutPrefix(t, prefix)
		if ok && part != "" && strings.HasSuffix(name, "-"+part) && len(name) > len(part)+1 {
			fits = append(fits, t)
		}
	}
	slices.Sort(fits)
	return fits
}

// sharedPrefix is the leading dash-separated parts, with their trailing
// dash, that every table of tables has, when there are two tables or
// more and the parts leave each table a part of its own; "" otherwise.
func sharedPrefix(tables map[string]bool) string {
	if len(tables) < 2 {
		return ""
	}
	var common []string
	first := true
	for t := range tables {
		parts := strings.Split(t, "-")
		if first {
			common, first = parts[:len(parts)-1], false
			continue
		}
		n := 0
		for n < len(common) && n < len(parts)-1 && common[n] == parts[n] {
			n++
		}
		common = common[:n]
	}
	if len(common) == 0 {
		return ""
	}
	return strings.Join(common, "-") + "-"
}

// originOf is the origin of a file's entry s of kind kind, the seen'th
// entry of those settings (persist.go).
func originOf(kind string, s *Spec, seen map[string]int) string {
	b, _ := json.Marshal(s)
	key := kind + ":" + string(b)
	seen[key]++
	return key + "#" + strconv.Itoa(seen[key])
}

// rebind moves the mapping uuid, made by TableName, to the table called
// table (origin: the file's entry that now makes it), to be read from
// its stream's start. False when there is no such mapping.
func (m *Manager) rebind(uuid, table, origin string) bool {
	mp := m.lookup(uuid)
	if mp == nil {
		return false
	}
	mp.mu.Lock()
	mp.st.tableName, mp.st.sourceARN, mp.started = table, "", false
	mp.origin = origin
	mp.modified = m.svc.Now()
	mp.notifyLocked()
	mp.mu.Unlock()
	mp.poke()
	m.save()
	return true
}
