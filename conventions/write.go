package conventions

import (
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Op is the kind of item write.
type Op uint8

// The operations. Batch and transaction writes are Puts and Deletes (and
// Updates in a transaction) item by item.
const (
	OpPut Op = iota
	OpUpdate
	OpDelete
)

var opNames = [...]string{OpPut: "PutItem", OpUpdate: "UpdateItem", OpDelete: "DeleteItem"}

// String returns the DynamoDB operation name.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "Op(?)"
}

// Write is one item write as the rules see it, before it is applied.
//
// Its items (Old, New, Get's) are the emulator's stored item type, from
// an internal package: the one listed exception to this package's rule
// that its API names only its own types. The emulator hands every
// data-plane write to the rules, and copying each item into a public
// type would cost an allocation and a walk per write. A Go program
// outside this module checks its writes through the emulator
// (emulator.Options.Conventions) or "dynamoemu check" instead.
type Write struct {
	Table  string
	Policy Policy
	Op     Op
	Key    Key
	// Position is where the item is in its request ("TransactItems[2]";
	// "" for a request of one item); the violations carry it.
	Position string
	// Names are the key attribute names; zero means "pk" and "sk". Only
	// rule L1 reads them (to leave the key out of its comparison).
	Names Key
	// Old is the item before the write, nil when there is none. The rules
	// that compare (A8, B6, B7, B8, B12) need it: the caller reads it
	// inside storage.Table.Write, where the old item is at hand.
	Old storage.Item
	// New is the item as it will be stored (after an update's actions), nil
	// for a delete.
	New storage.Item
	// NotExistsCondition reports that the request's ConditionExpression was
	// the framework's create guard (see IsNotExistsCondition).
	NotExistsCondition bool
	// Condition is the request's ConditionExpression ("" for none) and
	// ConditionNames its ExpressionAttributeNames: rule L1 reads whether a
	// write of the latest item is conditioned on where it points.
	Condition      string
	ConditionNames map[string]string
	// Holds evaluates the request's condition on an item (nil: no
	// condition, or none the caller can evaluate). Rule L1 reads a
	// condition without text through it: a PartiQL statement's WHERE
	// clause pins the latest item when it fails on that item moved.
	Holds func(item storage.Item) bool
	// Now is the request's clock reading (zero: unknown); rule B13 reads
	// it to tell a ttl in the past.
	Now time.Time
	// KnownTenant reports whether a tenant code is one the caller knows
	// (nil: none known); rule B16 refuses an index key that names a
	// known tenant other than the item's. The emulator knows the
	// configuration's tenants and those it has seen since it started.
	KnownTenant func(tenant string) bool
	// CallerTenant is the tenant the caller is bound to ("" for none, or
	// a cross-tenant caller): rule B14 reads it.
	CallerTenant string
	// CrossTenant is true when the caller is listed in the
	// configuration's crossTenant (rule B15 lets it write several
	// tenants in one transaction).
	CrossTenant bool
	// IndexKeys are the partition key attributes of the table's global
	// secondary indexes (rule B16).
	IndexKeys []IndexKey
	// Design matches an item against the entity templates the declared
	// design gives the table (rule D1): the entity it matches, or "" and
	// each entity's templates it was compared to. Nil: the table has no
	// design.
	Design func(item storage.Item) (entity string, compared []string)
	// Exists reports whether an item with the given key is in the table;
	// nil skips the rules that need it (B5). Inside storage.Table.Write's
	// fn the table's lock is held: Exists must not call back into the same
	// table's locking methods.
	Exists func(pk, sk string) bool
	// Command reports whether the data table's command table
	// (Policy.CommandTable) holds an item with the given key; nil skips
	// rule B18 (the namespace has no such table). The emulator locks that
	// table with the data table for the write, so the same lock caveat as
	// Exists applies.
	Command func(pk, sk string) bool
	// Get returns the item with the given key, nil when there is none; nil
	// skips the rules that need it (L1 on deletes: the latest item is
	// read to see whether it points at the deleted item). The same lock
	// caveat as Exists applies.
	Get func(pk, sk string) storage.Item
}

// Checker is what the emulator calls; Rules implements it.
type Checker interface {
	CheckWrite(w Write) []Violation
	CheckTransaction(ws []Write) []Violation
}

// IndexKey is a global secondary index's partition key attribute.
type IndexKey struct {
	Index, Attr string
}
