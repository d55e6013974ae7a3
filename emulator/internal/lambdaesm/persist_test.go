package lambdaesm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The mappings across restarts: a save after each change and each batch,
// restored with their UUIDs and checkpoints.

// saves keeps what a Manager's saver heard.
type saves struct {
	mu  sync.Mutex
	all [][]byte
}

func (s *saves) save(b []byte) {
	s.mu.Lock()
	s.all = append(s.all, b)
	s.mu.Unlock()
}

func (s *saves) last(t *testing.T) savedSet {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.all)
	var set savedSet
	require.NoError(t, json.Unmarshal(s.all[len(s.all)-1], &set))
	return set
}

func (s *saves) lastRaw() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all[len(s.all)-1]
}

func (s *saves) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.all)
}

// TestSaveAndRestore: the save holds each mapping's settings, UUID,
// stream and checkpoint; a Manager restored from it goes on after the
// last batch handled.
func TestSaveAndRestore(t *testing.T) {
	e := newESMEnv(t)
	var sv saves
	e.m.SetSaver(sv.save)
	fn := e.fn(nil)
	id := e.create(func(s *Spec) { s.BatchSize = ptr(int64(1)); reportItems(s); s.MaximumRetryAttempts = ptr(int64(4)) })
	e.puts("a", "b")
	e.drain()
	require.Equal(t, [][]string{{"a"}, {"b"}}, fn.batches())
	st := e.status(id)
	e.m.Close() // a stop saves the last checkpoint (a drain may return before its save)
	set := sv.last(t)
	require.Len(t, set.Mappings, 1)
	m := set.Mappings[0]
	require.Equal(t, id, *m.Spec.UUID)
	require.Equal(t, e.arn, m.Stream)
	require.Equal(t, st.Position, m.Position)
	require.Equal(t, "OK", m.LastResult)
	require.Equal(t, []string{reportBatchItemFailures}, m.Spec.FunctionResponseTypes)
	require.EqualValues(t, 4, *m.Spec.MaximumRetryAttempts)
	data := sv.lastRaw()

	// The same table in a new service, its first three records: the
	// restored mapping delivers the third only.
	e2 := newESMEnv(t)
	require.Equal(t, e.arn, e2.arn, "the same stream (the same clock and table)")
	fn2 := e2.fn(nil)
	e2.puts("a", "b", "c")
	n, _, err := e2.m.Restore(data)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	e2.drain()
	require.Equal(t, [][]string{{"c"}}, fn2.batches())
	got, err := e2.m.Get(id)
	require.NoError(t, err)
	require.Equal(t, []string{reportBatchItemFailures}, got.FunctionResponseTypes)
	require.Equal(t, "OK", got.LastProcessingResult)

	_, _, err = e2.m.Restore([]byte(`{"Mappings":[`))
	require.Error(t, err)
}

// TestRestorePastTheEnd: a checkpoint past the stream's end (a record
// delivered, then lost with the process before it reached the log) is
// moved back to the end, so the records written next are delivered.
func TestRestorePastTheEnd(t *testing.T) {
	e := newESMEnv(t)
	var sv saves
	e.m.SetSaver(sv.save)
	e.fn(nil)
	e.create(nil)
	e.puts("a", "b", "c")
	e.drain()
	e.m.Close()
	data := sv.lastRaw()

	e2 := newESMEnv(t)
	fn2 := e2.fn(nil)
	e2.puts("x") // one record: the saved checkpoint is past it
	_, _, err := e2.m.Restore(data)
	require.NoError(t, err)
	e2.puts("y", "z")
	e2.drain()
	var got []string
	for _, b := range fn2.batches() {
		got = append(got, b...)
	}
	require.Equal(t, []string{"y", "z"}, got)
}

// TestNoSaveWithoutMappings: a Manager that never had a mapping saves
// nothing; one whose last mapping is deleted saves the empty set.
func TestNoSaveWithoutMappings(t *testing.T) {
	e := newESMEnv(t)
	var sv saves
	e.m.SetSaver(sv.save)
	e.m.save()
	e.m.checkpoint()
	require.Zero(t, sv.count())
	id := e.create(nil)
	require.Len(t, sv.last(t).Mappings, 1)
	_, err := e.m.Delete(id)
	require.NoError(t, err)
	require.Empty(t, sv.last(t).Mappings)
}

// TestFileMappingsKeepTheirCheckpoints: a mapping made by a mappings
// file is made again by the file after a restart, with the saved UUID
// and checkpoint of the same entry; a saved one the file no longer makes
// is dropped at the next save.
func TestFileMappingsKeepTheirCheckpoints(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mappings.json")
	write := func(tables ...string) {
		f := File{LambdaEndpoint: "http://localhost:1"}
		for _, tb := range tables {
			f.Mappings = append(f.Mappings, Spec{TableName: ptr(tb), FunctionName: ptr("fn"), StartingPosition: ptr(posTrimHorizon)})
		}
		b, err := json.Marshal(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(file, b, 0o644))
	}
	write("tbl", "other")

	e := newESMEnv(t)
	var sv saves
	e.m.SetSaver(sv.save)
	e.fn(nil)
	require.NoError(t, e.m.LoadFile(file))
	e.puts("a")
	e.drain()
	e.m.Close()
	set := sv.last(t)
	require.Len(t, set.Mappings, 2)
	require.NotEmpty(t, set.Mappings[0].Origin)
	uuid := *set.Mappings[0].Spec.UUID
	data := sv.lastRaw()

	e2 := newESMEnv(t)
	var sv2 saves
	e2.m.SetSaver(sv2.save)
	fn2 := e2.fn(nil)
	e2.puts("a", "b")
	n, _, err := e2.m.Restore(data)
	require.NoError(t, err)
	require.Zero(t, n, "a file's mappings wait for their file")
	require.Empty(t, e2.m.List("", ""))
	write("tbl") // "other" is gone from the file
	require.NoError(t, e2.m.LoadFile(file))
	e2.drain()
	require.Equal(t, [][]string{{"b"}}, fn2.batches(), "from the saved checkpoint")
	list := e2.m.List("", "")
	require.Len(t, list, 1)
	require.Equal(t, uuid, list[0].UUID)
	e2.m.Close()
	require.Len(t, sv2.last(t).Mappings, 1, "the saved mapping no file makes is dropped")
}

// TestLoadFile: the file's endpoint and mappings; errors name the file
// and the mapping.
func TestLoadFile(t *testing.T) {
	e := newESMEnv(t)
	dir := t.TempDir()
	srv := newInvokeServer(t, nil)
	good := filepath.Join(dir, "good.json")
	require.NoError(t, os.WriteFile(good, []byte(`{"lambdaEndpoint":"`+srv.url+`/","mappings":[
		{"TableName":"tbl","FunctionName":"fn","StartingPosition":"TRIM_HORIZON",
		 "FilterCriteria":{"Filters":[{"Pattern":"{\"eventName\":[\"INSERT\"]}"}]}}]}`), 0o644))
	require.NoError(t, e.m.LoadFile(good))
	e.puts("a")
	e.drain()
	reqs := srv.requests()
	require.Len(t, reqs, 1)
	require.Equal(t, []string{"a"}, reqs[0].ev.ids())

	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"mappings":[{"TableName":"tbl","FunctionName":"fn","StartingPosition":"LATEST"},
		{"TableName":"tbl","FunctionName":"fn","StartingPosition":"LATEST","BatchSize":0}]}`), 0o644))
	err := e.m.LoadFile(bad)
	require.ErrorContains(t, err, bad+": mapping 2: ValidationException")
	require.ErrorContains(t, e.m.LoadFile(filepath.Join(dir, "none.json")), "no such file")
	broken := filepath.Join(dir, "broken.json")
	require.NoError(t, os.WriteFile(broken, []byte(`{"mappings":`), 0o644))
	require.ErrorContains(t, e.m.LoadFile(broken), broken)
}
