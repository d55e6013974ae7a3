// Package enginebench compares persist's hand-written log with the two
// embedded stores it could have used, bbolt and pebble, on what persist
// needs: appending one commit's record durably (one writer, and 16 at
// once), appending without waiting for the disk, and reading everything
// back at start-up. It is a module of its own so that neither store is a
// dependency of dynamoemu; run it from this directory:
//
//	go test -run '^$' -bench . -benchtime 2s
//
// Records are 300 bytes (a 240-byte item in storage's binary form plus
// its key), keyed by a sequence number as a log would be.
package enginebench

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/dynamoemu/dynamoemu/internal/persist"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	bolt "go.etcd.io/bbolt"
)

const recordSize = 300

var value = []byte(strings.Repeat("v", recordSize))

// solo is set while one goroutine writes.
var solo bool

// engine is a store under test: put appends record i; sync says whether
// it waits for the disk.
type engine struct {
	name string
	open func(b *testing.B, dir string, sync bool) (put func(i uint64) error, close func())
}

var engines = []engine{
	{name: "persist", open: openPersist},
	{name: "bbolt", open: openBolt},
	{name: "pebble", open: openPebble},
}

var ks = storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}

// openPersist: a Put of a 300-byte item through a persisted storage.DB,
// which logs one record per commit.
func openPersist(b *testing.B, dir string, sync bool) (func(uint64) error, func()) {
	d := persist.None
	if sync {
		d = persist.Sync
	}
	s, err := persist.Open(dir, persist.Options{Durability: d, CompactBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	db, err := s.DB(persist.SharedNamespace)
	if err != nil {
		b.Fatal(err)
	}
	t, err := db.CreateTable(storage.TableDef{Name: "t", ID: "t", Schema: ks})
	if err != nil {
		b.Fatal(err)
	}
	pad := strings.Repeat("x", recordSize-60)
	return func(i uint64) error {
		k := storage.Key{Partition: storage.S(fmt.Sprint("user#", i%100_000))}
		_, err := t.Put(k, storage.Item{"pk": k.Partition, "v": storage.S(pad), "n": storage.N(storage.MustNumber(fmt.Sprint(i)))})
		return err
	}, func() { s.Close() }
}

// openBolt: one read-write transaction per record (bbolt's commit writes
// the changed pages and its meta page, with an fdatasync each unless
// NoSync); concurrent writers go through DB.Batch, which groups them
// (and waits up to 10ms for company, so a lone writer uses Update).
func openBolt(b *testing.B, dir string, sync bool) (func(uint64) error, func()) {
	db, err := bolt.Open(filepath.Join(dir, "bolt.db"), 0o644, &bolt.Options{NoSync: !sync, NoFreelistSync: true})
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists([]byte("log")); return err }); err != nil {
		b.Fatal(err)
	}
	return func(i uint64) error {
		k := binary.BigEndian.AppendUint64(nil, i)
		put := func(tx *bolt.Tx) error { return tx.Bucket([]byte("log")).Put(k, value) }
		if solo {
			return db.Update(put)
		}
		return db.Batch(put)
	}, func() { db.Close() }
}

// openPebble: one Set per record, pebble.Sync or NoSync (pebble groups
// concurrent synced writes in its own log).
func openPebble(b *testing.B, dir string, sync bool) (func(uint64) error, func()) {
	db, err := pebble.Open(dir, &pebble.Options{})
	if err != nil {
		b.Fatal(err)
	}
	opt := pebble.NoSync
	if sync {
		opt = pebble.Sync
	}
	return func(i uint64) error {
		return db.Set(binary.BigEndian.AppendUint64(nil, i), value, opt)
	}, func() { db.Close() }
}

// BenchmarkAppend: one record per op, waiting for the disk (sync) or not,
// from one writer and from 16.
func BenchmarkAppend(b *testing.B) {
	for _, sync := range []bool{true, false} {
		for _, writers := range []int{1, 16} {
			for _, e := range engines {
				b.Run(fmt.Sprintf("sync=%v/writers=%d/%s", sync, writers, e.name), func(b *testing.B) {
					put, closeE := e.open(b, b.TempDir(), sync)
					defer closeE()
					var next atomic.Uint64
					solo = writers == 1
					if solo {
						for b.Loop() {
							if err := put(next.Add(1)); err != nil {
								b.Fatal(err)
							}
						}
						return
					}
					b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if err := put(next.Add(1)); err != nil {
								b.Error(err)
								return
							}
						}
					})
				})
			}
		}
	}
}

// BenchmarkReadBack: reading back 100k records written without sync
// (persist: loading the namespace, items into tables included; bbolt
// and pebble: iterating every key and value, nothing built).
func BenchmarkReadBack(b *testing.B) {
	const n = 100_000
	for _, e := range engines {
		b.Run(e.name, func(b *testing.B) {
			dir := b.TempDir()
			solo = true
			put, closeE := e.open(b, dir, false)
			for i := range uint64(n) {
				if err := put(i); err != nil {
					b.Fatal(err)
				}
			}
			closeE()
			for b.Loop() {
				switch e.name {
				case "persist":
					s, err := persist.Open(dir, persist.Options{CompactBytes: -1})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := s.DB(persist.SharedNamespace); err != nil {
						b.Fatal(err)
					}
					s.Close()
				case "bbolt":
					db, err := bolt.Open(filepath.Join(dir, "bolt.db"), 0o644, nil)
					if err != nil {
						b.Fatal(err)
					}
					count := 0
					db.View(func(tx *bolt.Tx) error {
						return tx.Bucket([]byte("log")).ForEach(func(k, v []byte) error { count += len(v); return nil })
					})
					db.Close()
				case "pebble":
					db, err := pebble.Open(dir, &pebble.Options{})
					if err != nil {
						b.Fatal(err)
					}
					it, _ := db.NewIter(nil)
					count := 0
					for it.First(); it.Valid(); it.Next() {
						count += len(it.Value())
					}
					it.Close()
					db.Close()
				}
			}
		})
	}
}
