// Package boundary is the declaration every operation of the emulator
// makes of what it touches (Decl): the tables, indexes, streams,
// backups, exports, mappings and items by key, with the kind of access.
// The DynamoDB API's and the Streams API's operations give theirs to the
// service core when they register (service.Op, DataOp, APIOp: an
// operation without one does not build), Lambda's event source mapping
// API and the admin endpoints beside their rows (lambdaesm, the
// emulator's endpoints table). The guard's judges, the IAM stage and the
// conventions' tenant guard, read the declaration before the operation
// runs (the CheckCall hook of the stage seam; the edge for the mappings
// and the admin endpoints); no handler carries a check of its own.
//
// A data-plane operation (On Items) is judged per use: the request
// pipeline puts each table, index and key it touches to the stages
// (service.TableUse, service.KeyGuard), as it names them.
package boundary

import (
	"reflect"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
)

// Access is the kind of access an operation has to what it touches.
type Access uint8

const (
	// Account touches no table's items or definition: a list, the
	// account's limits.
	Account Access = iota + 1
	// Describe reads a table's (or a backup's, a stream's, an export's)
	// definition or settings, none of its items.
	Describe
	// ItemRead reads items by key (a Scan or a Query of an index is
	// judged by its use as a read of every partition).
	ItemRead
	// ItemWrite writes items by key.
	ItemWrite
	// WholeRead reads every item of a table: a copy (a backup, a
	// restore, an export, a replica, a snapshot, a branch) or a stream.
	WholeRead
	// WholeWrite changes the table as a whole: made, deleted,
	// reconfigured, tagged, its stream or destinations changed.
	WholeWrite
	// Admin is an emulator's own endpoint that acts on its state.
	Admin
)

// String names the access as the docs' table does.
func (a Access) String() string {
	switch a {
	case Account:
		return "account"
	case Describe:
		return "describe"
	case ItemRead:
		return "item read"
	case ItemWrite:
		return "item write"
	case WholeRead:
		return "whole-table read"
	case WholeWrite:
		return "whole-table write"
	case Admin:
		return "admin"
	}
	return "undeclared"
}

// On is what names the resource an operation acts on, in its input.
type On uint8

const (
	// Table: TableName, TableArn or ResourceArn (a stream's ARN names
	// its table).
	Table On = iota + 1
	// Source: SourceTableName or SourceTableArn (a point-in-time
	// restore).
	Source
	// Backup: BackupArn, whose table is the one backed up.
	Backup
	// Stream: StreamArn, or the ShardIterator's stream.
	Stream
	// Streams: the streams of TableName, or of every table (none).
	Streams
	// AllTables: no resource-level permission (table/*).
	AllTables
	// Items: a data-plane operation, judged per use.
	Items
	// Export: ExportArn, whose table is the one exported.
	Export
	// Import: ImportArn, whose table is the one imported into.
	Import
	// Nothing: no resource, no permission asked (DescribeEndpoints:
	// every caller may ask where the service is).
	Nothing
	// Mapping: an event source mapping (Lambda's API), judged by the
	// table whose stream it delivers.
	Mapping
	// Own: the emulator's own state (the clock, the reports, the IAM
	// identities, the namespaces): an admin endpoint's, which acts on
	// every table and every tenant.
	Own
	// NewTable: the table the call makes, TableName (CreateTable) or
	// TableCreationParameters.TableName (ImportTable); one not made yet
	// is judged by the conventions configuration's entry for its name.
	NewTable
	// Bulk: BulkOperationArn, whose table is the one written (the
	// service finds an operation by its ARN exactly, so the table the
	// ARN names is the operation's).
	Bulk
)

// String names the resource as the docs' table does.
func (o On) String() string {
	switch o {
	case Table:
		return "table"
	case Source:
		return "source table"
	case Backup:
		return "backup"
	case Stream:
		return "stream"
	case Streams:
		return "streams"
	case AllTables:
		return "table/*"
	case Items:
		return "items by key"
	case Export:
		return "export"
	case Import:
		return "import"
	case Nothing:
		return "nothing"
	case Mapping:
		return "event source mapping"
	case Own:
		return "emulator state"
	case NewTable:
		return "new table"
	case Bulk:
		return "bulk operation"
	}
	return "undeclared"
}

// ARNField is the member of the input that holds the ARN of a backup,
// an export, an import or a bulk operation ("": another resource).
func (o On) ARNField() string {
	switch o {
	case Backup:
		return "BackupArn"
	case Export:
		return "ExportArn"
	case Import:
		return "ImportArn"
	case Bulk:
		return "BulkOperationArn"
	}
	return ""
}

// Decl is what an operation touches: the resource its input names (On)
// and how (Access); Target, a table it makes of another (a restore's
// TargetTableName), also judged as a whole-table write.
type Decl struct {
	On     On
	Access Access
	Target bool
}

// Valid reports whether d declares a resource and an access.
func (d Decl) Valid() bool { return d.On != 0 && d.Access != 0 }

// Whole reports whether d reads or changes its tables as a whole.
func (d Decl) Whole() bool { return d.Access == WholeRead || d.Access == WholeWrite }

// Tables are the names of the tables a call declared d touches, with
// its input in (the table a backup, a stream or an ARN names; the target
// of a restore last): none for Items, Streams without a table and
// AllTables.
func (d Decl) Tables(in any) []string {
	var out []string
	add := func(name string) {
		if name != "" {
			out = append(out, name)
		}
	}
	switch d.On {
	case Table:
		for _, f := range []string{"ResourceArn", "TableArn", "TableName", "GlobalTableName"} {
			if v := Field(in, f); v != "" {
				add(TableOf(v))
				break
			}
		}
	case Source:
		if v := Field(in, "SourceTableArn"); v != "" {
			add(TableOf(v))
		} else {
			add(Field(in, "SourceTableName"))
		}
	case Backup, Export, Import, Bulk:
		add(TableOf(Field(in, d.On.ARNField())))
	case NewTable:
		add(Field(in, "TableName"))
		add(Field(in, "TableCreationParameters.TableName"))
	case Stream:
		add(TableOf(StreamARN(in)))
	case Streams:
		add(Field(in, "TableName"))
	}
	if d.Target {
		add(Field(in, "TargetTableName"))
	}
	return out
}

// StreamARN is the stream a Streams API call names: its StreamArn, or
// its ShardIterator's ("": none).
func StreamARN(in any) string {
	if arn := Field(in, "StreamArn"); arn != "" {
		return arn
	}
	if it, ok := streamlog.DecodeIterator(Field(in, "ShardIterator")); ok {
		return it.ARN
	}
	return ""
}

// TableOf is the table a name or a DynamoDB ARN (a table's, its
// stream's, index's, backup's or export's) names.
func TableOf(v string) string {
	if !strings.HasPrefix(v, "arn:") {
		return v
	}
	parts := strings.SplitN(v, ":", 6)
	if len(parts) < 6 || parts[2] != "dynamodb" {
		return ""
	}
	rest, ok := strings.CutPrefix(parts[5], "table/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// Field is the string (or *string) field name of the struct in points
// to ("": none); a dotted name ("TableCreationParameters.TableName")
// walks the structs it names.
func Field(in any, name string) string {
	v := reflect.ValueOf(in)
	for more := true; more; {
		var f string
		f, name, more = strings.Cut(name, ".") // no slice of the parts made
		for v.Kind() == reflect.Pointer && !v.IsNil() {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return ""
		}
		v = v.FieldByName(f)
	}
	for v.IsValid() && v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.IsValid() && v.Kind() == reflect.String {
		return v.String()
	}
	return ""
}

// The declarations most operations make, by name.
var (
	// ItemsRead reads items by key (GetItem, Query, a PartiQL SELECT).
	ItemsRead = Decl{On: Items, Access: ItemRead}
	// ItemsWrite writes items by key.
	ItemsWrite = Decl{On: Items, Access: ItemWrite}
	// ItemsScan reads every item of a table or index (Scan).
	ItemsScan = Decl{On: Items, Access: WholeRead}
	// TableDescribe reads a table's definition or settings.
	TableDescribe = Decl{On: Table, Access: Describe}
	// TableWrite deletes or reconfigures a table.
	TableWrite = Decl{On: Table, Access: WholeWrite}
	// TableMake makes a table (CreateTable, ImportTable).
	TableMake = Decl{On: NewTable, Access: WholeWrite}
	// TableCopy copies every item of a table (a backup, an export).
	TableCopy = Decl{On: Table, Access: WholeRead}
	// List lists what the account has (table/*).
	List = Decl{On: AllTables, Access: Account}
)
