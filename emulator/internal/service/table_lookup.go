package service

import (
	"errors"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// A table by its TableName (a name, or a table ARN of the call's
// namespace): a live one (lookupTable), or one DELETING for a while.
//
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

// lookupTable resolves a TableName request parameter (a name, or a table
// ARN of this namespace) to the table, with AWS's validation and
// ResourceNotFoundException. Tables being deleted are not found.
//
// A table still CREATING (with a transient delay: a new table, or a
// restore in progress: Call.MakeTable) serves no item request: AWS answers a data-plane request to a table being
// created ResourceNotFoundException "Requested resource not found", as
// its API reference describes the exception ("The operation tried to
// access a nonexistent table or index. The resource might not be
// specified correctly, or its status might not be ACTIVE.") and public
// records of AWS's answers show (github.com/cirello-io/dynamolock/issues/120: a
// PutItem right after CreateTable). DynamoDB Local has no
// such state (its tables are ACTIVE at once, even with
// -delayTransientStatuses).
func (c *call) lookupTable(name string) (*table, error) {
	t, err := c.lookupTableMsg(name, apierr.MsgResourceNotFound)
	if err != nil {
		return nil, err
	}
	if m := t.meta.Load(); !m.ActiveAt.IsZero() && m.StatusAt(c.now) == statusCreating {
		return nil, apierr.ResourceNotFound(apierr.MsgResourceNotFound)
	}
	return t, nil
}

// lookupTableMsg is lookupTable with the ResourceNotFoundException message
// notFound (control-plane operations name the table in it).
func (c *call) lookupTableMsg(name, notFound string) (*table, error) {
	var cs apierr.Constraints
	tablespec.TableNameConstraints(&cs, name)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if err := c.valuesLayer(); err != nil {
		return nil, err // a value's error comes before the table (value_order.go)
	}
	if strings.HasPrefix(name, "arn:") {
		n, ok := c.tableNameFromARN(name)
		if !ok {
			return nil, apierr.ResourceNotFound(notFound)
		}
		name = n
	}
	t := c.ns.getTable(name)
	if t != nil && t.ns != c.ns && t.watchers() != nil { // a fork's shared table, which a stage watches: the fork gets its own
		c.ns.own()
		t = c.ns.getTable(name)
	}
	if t == nil {
		return nil, apierr.ResourceNotFound(notFound)
	}
	return t, nil
}

// tableARN returns the ARN of the table called name in this call's
// namespace.
func (c *call) tableARN(name string) string {
	return "arn:aws:dynamodb:" + c.region + ":" + c.account + ":table/" + name
}

// tableNameFromARN returns the table name in a table ARN if the ARN belongs
// to this call's region and account.
func (c *call) tableNameFromARN(arn string) (string, bool) {
	prefix := c.tableARN("")
	if !strings.HasPrefix(arn, prefix) {
		return "", false
	}
	name := arn[len(prefix):]
	if !tablespec.ValidTableName(name) {
		return "", false
	}
	return name, true
}

// backupSourceTable resolves the TableName of the backup and recovery
// operations (a name or an ARN, at constraint path path): a missing
// table is TableNotFoundException, as AWS's reference lists for them,
// and so is a table still CREATING (a restore in progress), as AWS
// answers CreateBackup, UpdateContinuousBackups and
// DescribeContinuousBackups for one (ack-api-quirks DDB-BACKUP-001,
// DDB-TABLE-217: "Table not found: <name>").
func (c *call) backupSourceTable(name *string, path string) (*table, error) {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, name, path) {
		tablespec.TableNameConstraints(&cs, *name)
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	n := *name
	if strings.HasPrefix(n, "arn:") {
		var ok bool
		if n, ok = c.tableNameFromARN(n); !ok {
			return nil, apierr.New(apierr.ErrTableNotFound, apierr.MsgTableNotFoundBackup(*name))
		}
	}
	t := c.ns.getTable(n)
	if t == nil || t.meta.Load().StatusAt(c.now) == statusCreating {
		return nil, apierr.New(apierr.ErrTableNotFound, apierr.MsgTableNotFoundBackup(n))
	}
	return t, nil
}
