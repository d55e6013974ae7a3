package service

import (
	"errors"
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

// retireTable takes t out of the catalog (removeTable) and keeps it
// DELETING until goneAt; tables whose goneAt has passed are forgotten.
func (ns *Namespace) retireTable(t *table, now, goneAt time.Time) {
	ns.cat.Load().Retire(t.name, t, now, goneAt)
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
	return c.ns.cat.Load().Deleting(name, now)
}

// ListedTables are the names ListTables lists, in ascending order: the
// namespace's tables, and those DELETING now that no live table has
// taken since.
func (c Call) ListedTables() []string { return c.c.ns.cat.Load().Listed(c.c.now) }

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
