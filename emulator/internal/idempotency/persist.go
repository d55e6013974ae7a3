package service

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// ClientRequestTokens across restarts (-dbPath). A token whose first
// request succeeded is saved in its namespace's DB as DB metadata (one
// key per token, metaKeyTokenPrefix + the token: a RecordMeta, logged and
// kept in snapshots like everything the DB holds), after the
// transaction's own record and before its answer. A token forgotten (its
// window over, or the store full) has its key deleted at the next
// request with a token; RebuildCatalog puts back the tokens still in
// their window (restoreTokens) and deletes the others. A process killed
// between the transaction's record and the token's loses the token only:
// the request was not answered, and its retry runs again, its conditions
// deciding, as without persistence. A failed save is logged, not
// answered: the transaction is done.

// metaKeyTokenPrefix prefixes the DB metadata key of a saved token.
const metaKeyTokenPrefix = "emulator/token/"

// tokenRecordVersion is the version of tokenRecord's encoding.
const tokenRecordVersion = 1

// tokenRecord is a saved token: what a replay answers and when its
// window started.
type tokenRecord struct {
	V     int                                 `json:"v"`
	FP    []byte                              `json:"fp"`
	At    time.Time                           `json:"at"`
	Reads []tokenUnits                        `json:"reads,omitempty"`
	ICM   map[string][]*ItemCollectionMetrics `json:"icm,omitempty"`
}

type tokenUnits struct {
	Table string  `json:"t"`
	Units float64 `json:"u"`
}

// persisted reports whether ns's DB is kept on disk.
func (ns *Namespace) persisted() bool { return ns != nil && ns.svc != nil && ns.svc.cfg.DBs != nil }

// save saves token key's completed use u in its namespace's DB, and
// deletes the saved copies of tokens forgotten since the last save.
// Called with no lock held.
func (s *tokenStore) save(key tokenKey, u *tokenUse) {
	if !key.ns.persisted() {
		return
	}
	s.mu.Lock()
	r := tokenRecord{V: tokenRecordVersion, FP: u.fp[:], At: u.at, ICM: u.answer.ItemCollectionMetrics}
	for _, x := range u.answer.replayReads {
		r.Reads = append(r.Reads, tokenUnits{x.table, x.units})
	}
	dead := s.dead
	s.dead = nil
	dead = slices.DeleteFunc(dead, func(k tokenKey) bool { return s.entries[k] != nil }) // used again since
	s.mu.Unlock()
	b, err := json.Marshal(&r)
	if err == nil {
		err = key.ns.registered().db.SetMeta(metaKeyTokenPrefix+key.token, b)
	}
	if err != nil {
		key.ns.svc.log.Warn("cannot save a ClientRequestToken: a retry after a restart runs again", "token", key.token, "err", err)
	} else {
		s.mu.Lock()
		u.saved = true
		s.mu.Unlock()
	}
	for _, k := range dead {
		_ = k.ns.registered().db.SetMeta(metaKeyTokenPrefix+k.token, nil)
	}
}

// restoreTokens puts back the tokens saved in ns's DB whose window is
// not over at now, and deletes the others.
func (ns *Namespace) restoreTokens(now time.Time) {
	s := ns.svc.tokens
	var stale []string
	s.mu.Lock()
	for _, k := range ns.db.MetaKeys() {
		token, ok := strings.CutPrefix(k, metaKeyTokenPrefix)
		if !ok {
			continue
		}
		var r tokenRecord
		if err := json.Unmarshal(ns.db.Meta(k), &r); err != nil || r.V != tokenRecordVersion || len(r.FP) != 32 || now.Sub(r.At) >= s.window {
			stale = append(stale, k)
			continue
		}
		out := &TransactWriteItemsOutput{ItemCollectionMetrics: r.ICM}
		for _, x := range r.Reads {
			out.replayReads = append(out.replayReads, txUnits{x.Table, x.Units})
		}
		u := &tokenUse{fp: [32]byte(r.FP), answer: out, at: r.At, saved: true, done: make(chan struct{})}
		close(u.done)
		u.size = tokenOverheadBytes + int64(len(token)) + out.replayBytes()
		key := tokenKey{ns, token}
		s.entries[key] = u
		s.queue = append(s.queue, tokenRef{key, u})
		s.bytes += u.size
	}
	slices.SortStableFunc(s.queue[s.head:], func(a, b tokenRef) int { return a.use.at.Compare(b.use.at) })
	s.trimLocked()
	s.startJanitorLocked()
	s.mu.Unlock()
	for _, k := range stale {
		_ = ns.db.SetMeta(k, nil)
	}
}
