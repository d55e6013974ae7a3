package service

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Tables DELETING for a while (-delayTransientStatuses): DeleteTable
// takes a table out of storage and the catalog at once, as without the
// delay, and keeps it here until its goneAt, so that DescribeTable shows
// it DELETING, ListTables lists it and a second DeleteTable answers
// without an error, as AWS's API reference describes (API_DeleteTable:
// "the specified table is in the DELETING state until DynamoDB completes
// the deletion ... If table is already in the DELETING state, no error is
// returned"). Item requests find no table (ResourceNotFoundException),
// which the reference allows ("DynamoDB might continue to accept data
// read and write operations"). A restart forgets these tables: nothing
// of them is recorded. Without the delay nothing is kept here.

// deletingTable is a table DeleteTable took out, DELETING until goneAt.
type deletingTable struct {
	t      *table
	goneAt time.Time
}

// retireTable takes t out of the catalog (removeTable) and keeps it
// DELETING until goneAt; tables whose goneAt has passed are forgotten.
func (ns *Namespace) retireTable(t *table, now, goneAt time.Time) {
	c := ns.cat.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, ok := c.findLocked(t.name); ok && c.tables[i] == t {
		c.tables = slices.Delete(c.tables, i, i+1)
	}
	c.deleting = slices.DeleteFunc(c.deleting, func(d deletingTable) bool { return !now.Before(d.goneAt) })
	c.deleting = append(c.deleting, deletingTable{t: t, goneAt: goneAt})
}

// deletingAt returns the table called name (or of a table ARN of the
// call's namespace) still DELETING at now, or nil.
func (c *call) deletingAt(name string, now time.Time) *table {
	if strings.HasPrefix(name, "arn:") {
		n, ok := c.tableNameFromARN(name)
		if !ok {
			return nil
		}
		name = n
	}
	cat := c.ns.cat.Load()
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	for _, d := range slices.Backward(cat.deleting) {
		if d.t.name == name && now.Before(d.goneAt) {
			return d.t
		}
	}
	return nil
}

// ListedTables are the names ListTables lists, in ascending order: the
// namespace's tables, and those DELETING now that no live table has
// taken since.
func (c Call) ListedTables() []string {
	cat, now := c.c.ns.cat.Load(), c.c.now
	names := c.c.ns.tableNames()
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	n := len(names)
	for _, d := range cat.deleting {
		if _, live := cat.findLocked(d.t.name); !live && now.Before(d.goneAt) && !slices.Contains(names[n:], d.t.name) {
			names = append(names, d.t.name)
		}
	}
	if len(names) > n {
		slices.Sort(names)
	}
	return names
}

// Host is the request's Host (host[:port]; "": none), for DescribeEndpoints.
func (c Call) Host() string { return c.c.host }

// deletingAfter returns the table called name still DELETING when err
// is the ResourceNotFoundException of looking it up, or nil.
func (c *call) deletingAfter(err error, name *string) *table {
	if name == nil || !errors.Is(err, apierr.ErrResourceNotFound) {
		return nil
	}
	return c.deletingAt(*name, c.now)
}
