package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// -dbPath and its flags: the emulator keeps every database in the
// directory (emulator.Options.DataDir, persist's store), as DynamoDB
// Local keeps its .db files there.

// storeFlags are the flags of -dbPath's store.
type storeFlags struct {
	durability        string
	groupCommitWindow time.Duration
	compactBytes      int64
	acceptLoss        bool
}

// defaultStoreFlags are their defaults.
func defaultStoreFlags() storeFlags {
	return storeFlags{durability: "sync", groupCommitWindow: 2 * time.Millisecond, compactBytes: 32 << 20}
}

// validatePersistence checks -dbPath, -inMemory, -durability,
// -groupCommitWindow and -dbCompactBytes.
func (c *config) validatePersistence() error {
	if c.dbPath != "" && c.inMemorySet && c.inMemory {
		// DynamoDB Local refuses both at once too.
		return errors.New("-inMemory and -dbPath exclude each other: give one")
	}
	if c.dbPath == "" && c.inMemorySet && !c.inMemory {
		return errors.New("-inMemory=false needs -dbPath")
	}
	if _, err := emulator.ParseDurability(c.store.durability); err != nil {
		return fmt.Errorf("-durability: %w", err)
	}
	if c.store.groupCommitWindow <= 0 {
		return fmt.Errorf("-groupCommitWindow %v: must be positive", c.store.groupCommitWindow)
	}
	if c.store.compactBytes <= 0 {
		return fmt.Errorf("-dbCompactBytes %d: must be positive", c.store.compactBytes)
	}
	return nil
}

// persistOptions sets opts' DataDir and Persist from the flags.
func (c *config) persistOptions(opts *emulator.Options) {
	if c.dbPath == "" {
		return
	}
	d, _ := emulator.ParseDurability(c.store.durability) // validated
	opts.DataDir = c.dbPath
	opts.Persist = emulator.PersistOptions{Durability: d, GroupWindow: c.store.groupCommitWindow, CompactBytes: c.store.compactBytes,
		AcceptLoss: c.store.acceptLoss}
}

// explainStoreError adds to an error of opening -dbPath what to do about
// a directory this process may not write: the common case in a container
// whose volume is a host directory owned by another user.
func explainStoreError(err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("%w (this server runs as uid %d, gid %d: make the directory writable by them, e.g. chown; in a container see docs/containers.md)", err, os.Getuid(), os.Getgid())
	}
	return err
}
