package idempotency

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"
)

// ClientRequestTokens across restarts (-dbPath). A token whose first
// request succeeded is saved in its namespace's DB as DB metadata (one
// key per token, metaKeyTokenPrefix + the token: a RecordMeta, logged and
// kept in snapshots like everything the DB holds), after the
// transaction's own record and before its answer. A token forgotten (its
// window over, or the store full) has its key deleted at the next
// request with a token; Restore, when a namespace is loaded, puts back
// the tokens still in their window and deletes the others. A process
// killed between the transaction's record and the token's loses the
// token only: the request was not answered, and its retry runs again,
// its conditions deciding, as without persistence. A failed save is
// logged, not answered: the transaction is done.

// Meta is where a namespace's completed tokens are kept across restarts:
// its DB's metadata (storage.DB's Meta, SetMeta and MetaKeys).
type Meta interface {
	Meta(key string) []byte
	SetMeta(key string, value []byte) error
	MetaKeys() []string
}

// metaKeyTokenPrefix prefixes the DB metadata key of a saved token.
const metaKeyTokenPrefix = "emulator/token/"

// tokenRecordVersion is the version of tokenRecord's encoding.
const tokenRecordVersion = 1

// tokenRecord is a saved token: its fingerprint and when its window
// started, followed in the same JSON object by the members of its
// answer (encodeRecord).
type tokenRecord struct {
	V  int       `json:"v"`
	FP []byte    `json:"fp"`
	At time.Time `json:"at"`
}

// deadToken is a forgotten token whose saved copy is to be deleted.
type deadToken[N comparable] struct {
	key  tokenKey[N]
	kept Meta
}

// encodeRecord encodes a completed token: its record's members, then
// those of its answer (an answer encodes as a JSON object).
func encodeRecord[A Answer](u *tokenUse[A]) ([]byte, error) {
	b, err := json.Marshal(tokenRecord{V: tokenRecordVersion, FP: u.fp[:], At: u.at})
	if err != nil {
		return nil, err
	}
	a, err := json.Marshal(u.answer)
	if err != nil {
		return nil, err
	}
	if len(a) > 2 { // not {}
		b = append(append(b[:len(b)-1], ','), a[1:]...)
	}
	return b, nil
}

// save saves token key's completed use u in kept (nil: nowhere), and
// deletes the saved copies of tokens forgotten since the last save.
// Called with no lock held.
func (s *Store[N, A]) save(kept Meta, key tokenKey[N], u *tokenUse[A]) {
	if kept == nil {
		return
	}
	s.mu.Lock()
	dead := s.dead
	s.dead = nil
	dead = slices.DeleteFunc(dead, func(d deadToken[N]) bool { return s.entries[d.key] != nil }) // used again since
	s.mu.Unlock()
	b, err := encodeRecord(u) // u does not change once completed
	if err == nil {
		err = kept.SetMeta(metaKeyTokenPrefix+key.token, b)
	}
	if err != nil {
		s.log.Warn("cannot save a ClientRequestToken: a retry after a restart runs again", "token", key.token, "err", err)
	} else {
		s.mu.Lock()
		u.saved = kept
		s.mu.Unlock()
	}
	for _, d := range dead {
		_ = d.kept.SetMeta(metaKeyTokenPrefix+d.key.token, nil)
	}
}

// Restore puts back the tokens of namespace ns saved in kept whose
// window is not over at now, and deletes the others. kept is read
// before the store's lock is taken, which stays a leaf.
func (s *Store[N, A]) Restore(ns N, kept Meta, now time.Time) {
	var stale []string
	var back []tokenRef[N, A]
	for _, k := range kept.MetaKeys() {
		token, ok := strings.CutPrefix(k, metaKeyTokenPrefix)
		if !ok {
			continue
		}
		b := kept.Meta(k)
		var r tokenRecord
		var a A
		if err := json.Unmarshal(b, &r); err != nil || r.V != tokenRecordVersion || len(r.FP) != 32 || now.Sub(r.At) >= s.window {
			stale = append(stale, k)
			continue
		}
		if err := json.Unmarshal(b, &a); err != nil {
			stale = append(stale, k)
			continue
		}
		u := &tokenUse[A]{fp: [32]byte(r.FP), answer: a, complete: true, at: r.At, saved: kept, done: make(chan struct{})}
		close(u.done)
		u.size = tokenOverheadBytes + int64(len(token)) + a.Bytes()
		back = append(back, tokenRef[N, A]{tokenKey[N]{ns, token}, u})
	}
	s.mu.Lock()
	for _, r := range back {
		s.entries[r.key] = r.use
		s.queue = append(s.queue, r)
		s.bytes += r.use.size
	}
	list := s.queue[s.head:]
	compare := func(a, b tokenRef[N, A]) int { return a.use.at.Compare(b.use.at) }
	sort.SliceStable(list, func(i, j int) bool { return compare(list[i], list[j]) < 0 })
	s.trimLocked()
	s.startJanitorLocked()
	s.mu.Unlock()
	for _, k := range stale {
		_ = kept.SetMeta(k, nil)
	}
}
