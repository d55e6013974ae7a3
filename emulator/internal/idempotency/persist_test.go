package idempotency

import (
	"encoding/base64"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// metaMap is a DB's metadata for the tests.
type metaMap struct {
	m    map[string][]byte
	fail bool // SetMeta fails
}

func (m *metaMap) Meta(key string) []byte { return m.m[key] }

func (m *metaMap) SetMeta(key string, value []byte) error {
	if m.fail {
		return errors.New("disk full")
	}
	if value == nil {
		delete(m.m, key)
	} else {
		m.m[key] = value
	}
	return nil
}

func (m *metaMap) MetaKeys() []string { return slices.Sorted(maps.Keys(m.m)) }

// TestSaveAndRestore: a completed token is saved as one metadata key,
// its answer's members beside its own; a namespace loaded again gets
// back the tokens still in their window, and the others are deleted.
func TestSaveAndRestore(t *testing.T) {
	kept := &metaMap{m: map[string][]byte{}}
	ns, base := &space{"a"}, time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
	s := newStore(Config{})
	var c countingRun
	_, _, err := s.Do(ns, kept, base.Add(-8*time.Minute), "old", Fingerprint("req"), c.run)
	require.NoError(t, err)
	_, _, err = s.Do(ns, kept, base, "new", Fingerprint("req"), c.run)
	require.NoError(t, err)
	require.Equal(t, []string{"emulator/token/new", "emulator/token/old"}, kept.MetaKeys())
	require.JSONEq(t, `{"v":1,"fp":"`+b64(Fingerprint("req"))+`","at":"2027-01-02T03:04:05Z","run":2}`, string(kept.Meta("emulator/token/new")))
	kept.m["emulator/token/junk"] = []byte(`{"v":9}`)

	r := newStore(Config{})
	r.Restore(ns, kept, base.Add(3*time.Minute)) // "old" is 11 minutes old
	require.Equal(t, []string{"emulator/token/new"}, kept.MetaKeys(), "stale and unreadable tokens deleted")
	a, replayed, err := r.Do(ns, kept, base.Add(3*time.Minute), "new", Fingerprint("req"), c.run)
	require.NoError(t, err)
	require.True(t, replayed)
	require.Equal(t, 2, a.Run)
	n, _ := r.Stats()
	require.Equal(t, 1, n)
}

// TestSaveForgotten: a token forgotten has its saved copy deleted at
// the next save; a failed save is logged, and the token still answers.
func TestSaveForgotten(t *testing.T) {
	kept := &metaMap{m: map[string][]byte{}}
	ns, base := &space{"a"}, time.Unix(1_800_000_000, 0)
	s := newStore(Config{})
	var c countingRun
	_, _, err := s.Do(ns, kept, base, "a", Fingerprint("req"), c.run)
	require.NoError(t, err)
	s.Expire(base.Add(Window))
	_, _, err = s.Do(ns, kept, base.Add(Window), "b", Fingerprint("req"), c.run)
	require.NoError(t, err)
	require.Equal(t, []string{"emulator/token/b"}, kept.MetaKeys())

	kept.fail = true
	_, _, err = s.Do(ns, kept, base.Add(Window), "c", Fingerprint("req"), c.run)
	require.NoError(t, err, "a failed save does not fail the request")
	a, replayed, err := s.Do(ns, kept, base.Add(Window), "c", Fingerprint("req"), c.run)
	require.NoError(t, err)
	require.True(t, replayed)
	require.Equal(t, 3, a.Run)
}

func b64(fp [32]byte) string { return base64.StdEncoding.EncodeToString(fp[:]) }
