package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCorruptFiles damages the newest log segment and the snapshot of a
// server's -dbPath in each way (truncated, a byte flipped, a page
// zeroed), then restarts the server on it. With the log damaged it
// starts, its log says what it cut, and it holds whole transactions
// only, the state after some prefix of them (point-in-time recovery).
// With the snapshot damaged (one is kept) it refuses to start, naming
// the file. The persist package tests each damage in depth; this is the
// server end to end.
func TestCorruptFiles(t *testing.T) {
	const txs, tail, keys = 400, 40, 5
	damages := []struct {
		name string
		do   func(b []byte, at int) []byte
	}{
		{"truncate", func(b []byte, at int) []byte { return b[:at] }},
		{"flip a byte", func(b []byte, at int) []byte { b[at] ^= 0x5a; return b }},
		{"zero a page", func(b []byte, at int) []byte {
			page := at &^ 4095
			clear(b[page:min(page+4096, len(b))])
			return b
		}},
	}
	for _, target := range []string{"log", "snapshot"} {
		for _, dmg := range damages {
			t.Run(target+"/"+dmg.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				ctx := context.Background()
				c := startChild(t, "-dbPath", dir, "-durability", "none", "-dbCompactBytes", "4096")
				cl := newClient(c.url)
				for _, name := range []string{"tblA", "tblB"} {
					if err := cl.call(ctx, "CreateTable", `{"TableName":"`+name+`","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`, nil); err != nil {
						t.Fatal(err)
					}
				}
				// Transaction i writes v = i to key i%keys of both tables:
				// the first ones with compactions (several snapshots), the
				// last ones, after a restart, without (the log's tail).
				tx := func(i int) {
					a, _ := itemJSON(fmt.Sprintf("k%d", i%keys), i, "g0", 0)
					body := `{"TransactItems":[{"Put":{"TableName":"tblA","Item":` + a + `}},{"Put":{"TableName":"tblB","Item":` + a + `}}]}`
					if err := cl.call(ctx, "TransactWriteItems", body, nil); err != nil {
						t.Fatal(err)
					}
				}
				for i := range txs - tail {
					tx(i)
				}
				c.stop(t)
				c = startChild(t, "-dbPath", dir, "-durability", "none")
				cl = newClient(c.url)
				for i := txs - tail; i < txs; i++ {
					tx(i)
				}
				c.stop(t)

				nsDir := filepath.Join(dir, "crash_us-east-1")
				prefix, suffix := "wal-", ".log"
				if target == "snapshot" {
					prefix, suffix = "snap-", ".snap"
				}
				file := newestFile(t, nsDir, prefix, suffix)
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				r := rand.New(rand.NewPCG(uint64(len(b)), 0))
				at := len(b)/2 + r.IntN(len(b)/2)
				if target == "log" {
					at = len(b) - 1 - r.IntN(min(len(b)/2, tail*100)) // among the tail's records
				}
				// A log cut where a frame ends is a shorter log, not a
				// damaged one: nothing tells it from a log that ended
				// there, so the server has no damage to report (the
				// test picked such a cut about once in a hundred runs).
				damaged := target != "log" || dmg.name != "truncate" || !atFrameEnd(b, at)
				if err := os.WriteFile(file, dmg.do(b, at), 0o644); err != nil {
					t.Fatal(err)
				}

				if target == "snapshot" {
					c, err := tryStartChild(t, "-dbPath", dir)
					if err == nil {
						c.stop(t)
						t.Fatal("the server started on a damaged snapshot with no other")
					}
					require.Contains(t, err.Error(), "no usable snapshot ("+filepath.Base(file))
					return
				}
				c = startChild(t, "-dbPath", dir)
				defer c.stop(t)
				logs := c.logs.String()
				wantMsg := "persist: log cut at damage"
				if damaged && (!strings.Contains(logs, wantMsg) || !strings.Contains(logs, "namespace loaded after recovery")) {
					t.Errorf("the server's log does not say what it recovered from (want %q):\n%s", wantMsg, logs)
				}
				cl = newClient(c.url)
				got := map[string][2]int{}
				for i, name := range []string{"tblA", "tblB"} {
					items, err := cl.scanAll(ctx, name, "")
					if err != nil {
						t.Fatal(err)
					}
					for _, it := range items {
						v, _ := strconv.Atoi(it["v"]["N"].(string))
						e := got[it["pk"]["S"].(string)]
						e[i] = v + 1 // 0: absent
						got[it["pk"]["S"].(string)] = e
					}
				}
				// The state after transactions 0..p-1, p the newest found.
				p := 0
				for _, e := range got {
					p = max(p, e[0], e[1])
				}
				for k := range keys {
					want := 0
					for i := range p {
						if i%keys == k {
							want = i + 1
						}
					}
					if e := got[fmt.Sprintf("k%d", k)]; e[0] != want || e[1] != want {
						t.Errorf("k%d: got v+1 = %v in tblA and tblB, want %d in both (the state after transactions 0..%d)", k, e, want, p-1)
					}
				}
			})
		}
	}
}

// newestFile returns the newest file of dir named prefix...suffix that
// holds more than a header.
func newestFile(t *testing.T, dir, prefix, suffix string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if info, err := e.Info(); err == nil && info.Size() >= 64 && strings.HasPrefix(e.Name(), prefix) && strings.HasSuffix(e.Name(), suffix) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatalf("no %s*%s in %s", prefix, suffix, dir)
	}
	slices.Sort(names)
	return filepath.Join(dir, names[len(names)-1])
}

// atFrameEnd reports whether byte at of a log segment b is where one of
// its frames ends (or its header does): a segment's header is 32 bytes,
// each frame 16 bytes of header (its payload's length first) and its
// payload (internal/persist frame.go).
func atFrameEnd(b []byte, at int) bool {
	off := 32
	for off < at && off+16 <= len(b) {
		off += 16 + int(binary.LittleEndian.Uint32(b[off:]))
	}
	return off == at
}
