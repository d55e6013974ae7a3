package lambdaesm

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
)

// A tumbling window's state is saved with its checkpoint, in one save.

// windowSaves writes a, b and c (12:00:01-03, the window 12:00-12:15)
// to a mapping of BatchSize 1 and TumblingWindowInSeconds 900 that
// counts its records in its state, drains, stops, and returns every
// save the mapping made, oldest first, and the records' sequence
// numbers. With a ParallelizationFactor of 3 the mapping is enabled
// once the records are written, so it reads them as one batch of three
// that it delivers one record at a time.
func windowSaves(t *testing.T, parallel int64) ([][]byte, map[string]uint64) {
	e := newESMEnv(t)
	var sv saves
	e.m.SetSaver(sv.save)
	e.fn(windowAnswer)
	id := e.create(func(s *Spec) {
		s.BatchSize = ptr(int64(1))
		s.TumblingWindowInSeconds = ptr(int64(900))
		s.ParallelizationFactor = ptr(parallel)
		s.Enabled = ptr(parallel == 1)
	})
	e.puts("a", "b", "c")
	if parallel > 1 {
		e.enable(id)
	}
	e.drain()
	e.m.Close()
	recs, _, _, err := e.stream().Read(streamlog.FirstSequenceNumber, 10, 1<<40, e.Clock.Now())
	require.NoError(t, err)
	seqs := map[string]uint64{}
	for _, r := range recs {
		seqs[r.Key.Partition.Str()] = r.Seq
	}
	require.Len(t, seqs, 3)
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return slices.Clone(sv.all), seqs
}

// before are the ids whose records come before pos.
func before(seqs map[string]uint64, pos uint64) []string {
	var out []string
	for id, s := range seqs {
		if s < pos {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// TestTumblingWindowStateSavedWithCheckpoint: every save holds a
// checkpoint and a window state that agree (the state counts exactly
// the records before the checkpoint), each of the three records has a
// save of its own, and a restart from any save (a kill -9 leaves one of
// them: a save replaces the last whole) ends the window with a state
// counting all five records, each record once, and delivers no record
// before the saved checkpoint again.
func TestTumblingWindowStateSavedWithCheckpoint(t *testing.T) {
	for _, parallel := range []int64{1, 3} {
		t.Run(fmt.Sprintf("ParallelizationFactor=%d", parallel), func(t *testing.T) { windowSavedWithCheckpoint(t, parallel) })
	}
}

func windowSavedWithCheckpoint(t *testing.T, parallel int64) {
	all, seqs := windowSaves(t, parallel)
	counted := map[int]bool{}
	for i, data := range all {
		var set savedSet
		require.NoError(t, json.Unmarshal(data, &set))
		require.Len(t, set.Mappings, 1)
		m := set.Mappings[0]
		if m.Position == "" {
			require.Nil(t, m.Window, "save %d: a window without a checkpoint", i)
			continue
		}
		pos, ok := streamlog.ParseSequenceNumber(m.Position)
		require.True(t, ok)
		done := before(seqs, pos)
		if len(done) == 0 {
			require.Nil(t, m.Window, "save %d: a window before any record", i)
			continue
		}
		require.NotNil(t, m.Window, "save %d: the checkpoint is past %v, the window is open", i, done)
		var st struct{ N int }
		require.NoError(t, json.Unmarshal(m.Window.State, &st))
		require.Equal(t, len(done), st.N, "save %d: the state counts the records before the checkpoint", i)
		require.EqualValues(t, windowOf(servicetest.Start.Unix(), 900), m.Window.Start)
		counted[st.N] = true
	}
	require.Equal(t, map[int]bool{1: true, 2: true, 3: true}, counted, "a save for each record")

	for i, data := range all {
		e := newESMEnv(t)
		fn := e.fn(windowAnswer)
		e.puts("a", "b", "c") // the same records, at the same times
		_, _, err := e.m.Restore(data)
		require.NoError(t, err)
		var set savedSet
		require.NoError(t, json.Unmarshal(data, &set))
		e.enable(*set.Mappings[0].Spec.UUID) // saved before its enabling, it would wait
		e.puts("d", "e")
		e.Clock.Advance(20 * time.Minute)
		e.drain()
		pos := uint64(streamlog.FirstSequenceNumber)
		if p := set.Mappings[0].Position; p != "" {
			pos, _ = streamlog.ParseSequenceNumber(p)
		}
		done := before(seqs, pos)
		evs := fn.all()
		require.NotEmpty(t, evs)
		var got []string
		for _, ev := range evs[:len(evs)-1] {
			require.False(t, ev.Final, "save %d", i)
			for _, id := range ev.ids() {
				require.NotContains(t, done, id, "save %d: a record before the checkpoint delivered again", i)
				require.NotContains(t, got, id, "save %d: a record delivered twice", i)
				got = append(got, id)
			}
		}
		require.Len(t, append(got, done...), 5, "save %d: every record once", i)
		last := evs[len(evs)-1]
		require.True(t, last.Final, "save %d: the window's final invocation", i)
		require.JSONEq(t, `{"N":5}`, string(last.State), "save %d: the state counts all five", i)
	}
}
