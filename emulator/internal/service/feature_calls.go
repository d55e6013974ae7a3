package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// What a feature's operation may ask of the core beyond naming tables
// (feature.go): the core's own checks and writes, so a feature answers
// as the core's operations do and writes through the same path.

// Clock reads the service's clock now (Now is the request's arrival).
func (c Call) Clock() time.Time { return c.c.clock() }

// TableNameFromARN returns the table name a table ARN of the request's
// region and account names, or false.
func (c Call) TableNameFromARN(arn string) (string, bool) { return c.c.tableNameFromARN(arn) }

// BackupSourceTable resolves the table of a backup or recovery
// operation (a name or an ARN, at constraint path path) as the core's
// backup operations do: a missing table, or one still CREATING, is
// TableNotFoundException.
func (c Call) BackupSourceTable(name *string, path string) (Table, error) {
	t, err := c.c.backupSourceTable(name, path)
	if err != nil {
		return Table{}, err
	}
	return Table{t: t}, nil
}

// Detached returns a copy of the call for a feature's own writes (an
// import's table and items): what they do is not this request's answer,
// its table or its capacity.
func (c Call) Detached() Call {
	inner := *c.c
	inner.out, inner.tableName = nil, nil
	return Call{c: &inner}
}

// CreateTable creates a table as CreateTable does, ACTIVE at once (the
// feature's own job, an import, is what stays in progress for the
// transient delay).
func (c Call) CreateTable(in *CreateTableInput) (*CreateTableOutput, error) {
	return createTableFor(c.c, in, 0)
}

// PutItem writes an item as PutItem does (its checks, condition, indexes
// and streams), without the request pipeline's stages: the feature's
// operation went through them once.
func (c Call) PutItem(in *PutItemInput) error {
	_, err := handlePutItem(c.c, in)
	return err
}

// Info is the table's identity: its name, TableId, ARN, creation time
// and key schema.
func (t Table) Info() tablespec.Identity { return t.t.identity() }

// identity is t's identity, as a feature reads it.
func (t *table) identity() tablespec.Identity {
	return tablespec.Identity{Name: t.name, ID: t.id, ARN: t.arn, Created: t.created, Keys: t.keySchema}
}

// EpochTime is a timestamp on the wire: seconds since the epoch with
// millisecond precision, as a JSON number.
type EpochTime = tablespec.EpochTime
