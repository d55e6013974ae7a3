package storage

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSiblingAndLocked: a table finds another of its DB by name, and a
// transaction finds the tables it locked by name, none other.
func TestSiblingAndLocked(t *testing.T) {
	db := newDB(t, nil)
	data, err := db.CreateTable(TableDef{Name: "app-order-data", ID: "1", Schema: schemaS})
	require.NoError(t, err)
	command, err := db.CreateTable(TableDef{Name: "app-order-command", ID: "2", Schema: schemaS})
	require.NoError(t, err)
	require.Same(t, command, data.Sibling("app-order-command"))
	require.Nil(t, data.Sibling("app-user-command"))
	require.Nil(t, data.Sibling(""))

	tx := Begin(data, command)
	defer tx.Abort()
	require.Same(t, command, tx.Locked("app-order-command"))
	require.Same(t, data, tx.Locked("app-order-data"))
	require.Nil(t, tx.Locked("app-user-command"))
	solo := Begin(mustTable(t, newDB(t, nil), "app-order-data"))
	defer solo.Abort()
	require.Nil(t, solo.Locked("app-order-command"), "a table of another DB is not locked by this transaction")
}

// mustTable creates a table of db named name.
func mustTable(t *testing.T, db *DB, name string) *Table {
	t.Helper()
	tb, err := db.CreateTable(TableDef{Name: name, ID: name, Schema: schemaS})
	require.NoError(t, err)
	return tb
}
