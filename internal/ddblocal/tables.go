package ddblocal

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// Table is what a DynamoDB Local file says of one table: enough for the
// CreateTable and UpdateTimeToLive that make it again.
type Table struct {
	Name    string
	Created time.Time
	// PayPerRequest is the billing mode; otherwise ReadCapacityUnits and
	// WriteCapacityUnits are the provisioned throughput.
	PayPerRequest      bool
	ReadCapacityUnits  int64
	WriteCapacityUnits int64
	// MaxReadRequestUnits and MaxWriteRequestUnits are the on-demand
	// maximums (OnDemandThroughput), 0 when not set.
	MaxReadRequestUnits  int64
	MaxWriteRequestUnits int64
	DeletionProtection   bool
	// AttributeDefinitions, KeySchema, LocalSecondaryIndexes and
	// GlobalSecondaryIndexes are as CreateTable takes them.
	AttributeDefinitions   []AttributeDefinition
	KeySchema              []KeySchemaElement
	LocalSecondaryIndexes  []json.RawMessage
	GlobalSecondaryIndexes []json.RawMessage
	// TTLAttribute is the TimeToLive attribute, "" when TTL is off.
	TTLAttribute string
	// StreamViewType is the enabled stream's view type, "" when the table
	// has no enabled stream.
	StreamViewType string
}

// AttributeDefinition and KeySchemaElement are CreateTable's, as an
// answer holds them (values).
type (
	AttributeDefinition = shapes.AttributeDefinition[string]
	KeySchemaElement    = shapes.KeySchemaElement[string]
)

// tableInfo is the part of dm's TableInfo JSON read here.
type tableInfo struct {
	Attributes              []AttributeDefinition
	LSIList                 []json.RawMessage
	GSIList                 []json.RawMessage
	TimeToLiveAttributeName string
	SQLiteIndex             map[string][]struct {
		DynamoDBAttribute AttributeDefinition
		KeyType           string
	}
}

// Tables lists the file's tables in name order.
func (f *File) Tables() ([]Table, error) {
	rows, err := f.db.Query(`SELECT TableName, CreationDateTime, ReadCapacityUnits, WriteCapacityUnits, TableInfo,
		BillingMode, DeletionProtectionEnabled, MaxReadRequestUnits, MaxWriteRequestUnits FROM dm ORDER BY TableName`)
	if err != nil {
		return nil, f.damaged(err)
	}
	defer rows.Close()
	var tables []Table
	for rows.Next() {
		var (
			t                   Table
			created, rcu, wcu   sql.NullInt64
			billing, maxR, maxW sql.NullInt64
			info                []byte
			protection          any
		)
		if err := rows.Scan(&t.Name, &created, &rcu, &wcu, &info, &billing, &protection, &maxR, &maxW); err != nil {
			return nil, f.damaged(err)
		}
		t.Created = time.UnixMilli(created.Int64).UTC()
		t.PayPerRequest = billing.Int64 == 1
		if !t.PayPerRequest {
			t.ReadCapacityUnits, t.WriteCapacityUnits = rcu.Int64, wcu.Int64
		}
		t.MaxReadRequestUnits, t.MaxWriteRequestUnits = max(maxR.Int64, 0), max(maxW.Int64, 0)
		t.DeletionProtection = truthy(protection)
		if err := t.readInfo(info); err != nil {
			return nil, fmt.Errorf("%s: table %s: %w", f.path, t.Name, err)
		}
		tables = append(tables, t)
	}
	if err := rows.Err(); err != nil {
		return nil, f.damaged(err)
	}
	rows.Close()
	for i := range tables {
		view, err := f.streamViewType(tables[i].Name)
		if err != nil {
			return nil, err
		}
		tables[i].StreamViewType = view
	}
	return tables, nil
}

// readInfo fills t from dm's TableInfo JSON.
func (t *Table) readInfo(info []byte) error {
	var ti tableInfo
	if err := json.Unmarshal(info, &ti); err != nil {
		return fmt.Errorf("its definition (dm.TableInfo) is not the JSON DynamoDB Local writes: %w", err)
	}
	t.AttributeDefinitions = ti.Attributes
	t.LocalSecondaryIndexes = ti.LSIList
	t.GlobalSecondaryIndexes = ti.GSIList
	t.TTLAttribute = ti.TimeToLiveAttributeName
	for _, k := range ti.SQLiteIndex[""] {
		t.KeySchema = append(t.KeySchema, KeySchemaElement{AttributeName: k.DynamoDBAttribute.AttributeName, KeyType: k.KeyType})
	}
	if len(t.KeySchema) == 0 || len(t.AttributeDefinitions) == 0 {
		return fmt.Errorf("its definition (dm.TableInfo) has no key schema or attribute definitions")
	}
	return nil
}

// streamViewType is the view type of the table's enabled stream, "" if
// it has none.
func (f *File) streamViewType(table string) (string, error) {
	var info []byte
	err := f.db.QueryRow(`SELECT StreamInfo FROM sm WHERE TableName = ? AND StreamStatus = 'ENABLED'
		ORDER BY CreationDateTime DESC LIMIT 1`, table).Scan(&info)
	switch {
	case err == sql.ErrNoRows:
		return "", nil
	case err != nil:
		return "", f.damaged(err)
	}
	var si struct{ StreamViewType string }
	if err := json.Unmarshal(info, &si); err != nil || si.StreamViewType == "" {
		return "", fmt.Errorf("%s: table %s: its stream's settings (sm.StreamInfo) are not the JSON DynamoDB Local writes", f.path, table)
	}
	return si.StreamViewType, nil
}

// truthy reads dm.DeletionProtectionEnabled, which DynamoDB Local writes
// as NULL, 0/1 or "true"/"false".
func truthy(v any) bool {
	switch v := v.(type) {
	case int64:
		return v != 0
	case string:
		return strings.EqualFold(v, "true") || v == "1"
	case []byte:
		return strings.EqualFold(string(v), "true") || string(v) == "1"
	}
	return false
}

// CreateTableInput is the CreateTable request (DynamoDB JSON) that makes
// the table again: keys, billing, indexes, stream and deletion
// protection. TTL is UpdateTimeToLive's (TTLAttribute).
func (t Table) CreateTableInput() map[string]any {
	in := map[string]any{
		"TableName":            t.Name,
		"AttributeDefinitions": t.AttributeDefinitions,
		"KeySchema":            t.KeySchema,
	}
	if t.PayPerRequest {
		in["BillingMode"] = "PAY_PER_REQUEST"
		od := map[string]int64{}
		if t.MaxReadRequestUnits > 0 {
			od["MaxReadRequestUnits"] = t.MaxReadRequestUnits
		}
		if t.MaxWriteRequestUnits > 0 {
			od["MaxWriteRequestUnits"] = t.MaxWriteRequestUnits
		}
		if len(od) > 0 {
			in["OnDemandThroughput"] = od
		}
	} else {
		in["BillingMode"] = "PROVISIONED"
		in["ProvisionedThroughput"] = map[string]int64{"ReadCapacityUnits": t.ReadCapacityUnits, "WriteCapacityUnits": t.WriteCapacityUnits}
	}
	if len(t.LocalSecondaryIndexes) > 0 {
		in["LocalSecondaryIndexes"] = t.LocalSecondaryIndexes
	}
	if len(t.GlobalSecondaryIndexes) > 0 {
		in["GlobalSecondaryIndexes"] = t.GlobalSecondaryIndexes
	}
	if t.StreamViewType != "" {
		in["StreamSpecification"] = map[string]any{"StreamEnabled": true, "StreamViewType": t.StreamViewType}
	}
	if t.DeletionProtection {
		in["DeletionProtectionEnabled"] = true
	}
	return in
}

// Items calls fn with each item of table, as DynamoDB JSON, in the
// file's order, and stops at fn's first error.
func (f *File) Items(table string, fn func(item json.RawMessage) error) error {
	rows, err := f.db.Query(`SELECT ObjectJSON FROM "` + strings.ReplaceAll(table, `"`, `""`) + `"`)
	if err != nil {
		return fmt.Errorf("%s: table %s: its items: %w", f.path, table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var item []byte
		if err := rows.Scan(&item); err != nil {
			return f.damaged(err)
		}
		if !json.Valid(item) {
			return fmt.Errorf("%s: table %s: an item (ObjectJSON) is not JSON", f.path, table)
		}
		if err := fn(item); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return f.damaged(err)
	}
	return nil
}

// ItemCount is the number of items of table.
func (f *File) ItemCount(table string) (int64, error) {
	var n int64
	if err := f.db.QueryRow(`SELECT count(*) FROM "` + strings.ReplaceAll(table, `"`, `""`) + `"`).Scan(&n); err != nil {
		return 0, fmt.Errorf("%s: table %s: %w", f.path, table, err)
	}
	return n, nil
}
