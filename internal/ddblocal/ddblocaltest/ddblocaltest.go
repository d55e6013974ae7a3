// Package ddblocaltest writes small DynamoDB Local database files for
// tests: the schema DynamoDB Local 3.3.0 writes, with rows as it writes
// them.
package ddblocaltest

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite" // the driver "sqlite"
)

// schema is the schema DynamoDB Local 3.3.0 writes (read off a file
// it made with -dbPath: sqlite3 FILE .schema), with one table, Orders,
// that has an LSI, a GSI, TTL and a stream.
var schema = []string{
	`CREATE TABLE cf (version TEXT)`,
	`CREATE TABLE dm (TableName TEXT, CreationDateTime INTEGER, LastDecreaseDate INTEGER, LastIncreaseDate INTEGER, NumberOfDecreasesToday INTEGER, ReadCapacityUnits INTEGER, WriteCapacityUnits INTEGER, TableInfo BLOB, BillingMode INTEGER DEFAULT 0, PayPerRequestDateTime INTEGER DEFAULT 0, DeletionProtectionEnabled INTEGER DEFAULT 0, DeletionProtectionUpdateTime INTEGER DEFAULT 0, MaxReadRequestUnits INTEGER DEFAULT 0, MaxWriteRequestUnits INTEGER DEFAULT 0, PRIMARY KEY(TableName))`,
	`CREATE TABLE sm (StreamID TEXT, StreamStatus TEXT, TableName TEXT, StreamInfo BLOB, CreationDateTime INTEGER, DeletionDateTime INTEGER, PRIMARY KEY(StreamID))`,
	`CREATE TABLE ss (StreamID TEXT, ShardID TEXT, CreationDateTime INTEGER, DeletionDateTime INTEGER, InitialSequenceNumberStart INTEGER, SequenceNumberEnd INTEGER, ParentShardID TEXT, PRIMARY KEY(ShardID))`,
	`CREATE TABLE us (StreamID TEXT, ShardID TEXT, SequenceNumber INTEGER, CreationDateTime INTEGER, StreamRecord BLOB, OperationType TEXT, PRIMARY KEY(SequenceNumber))`,
	`CREATE TABLE tr (TransactionId TEXT, TransactionSignature BLOB, CreationDateTime INTEGER, PRIMARY KEY(TransactionId))`,
	`CREATE TABLE "Orders" (hashKey TEXT DEFAULT NULL, rangeKey BLOB DEFAULT NULL, indexKey_0 TEXT DEFAULT NULL, hashValue BLOB NOT NULL, rangeValue BLOB NOT NULL, itemSize INTEGER DEFAULT 0, ObjectJSON BLOB NOT NULL, hashRangeValue BLOB NOT NULL DEFAULT 0, indexKey_1 BLOB DEFAULT NULL, PRIMARY KEY(hashKey, rangeKey))`,
	`CREATE TABLE "Plain" (hashKey BLOB DEFAULT NULL, hashValue BLOB NOT NULL, itemSize INTEGER DEFAULT 0, ObjectJSON BLOB NOT NULL, PRIMARY KEY(hashKey))`,
	`INSERT INTO cf VALUES ('v2.4.0')`,
}

const ordersInfo = `{"Attributes":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"B"},{"AttributeName":"l","AttributeType":"S"}],
"LSIList":[{"IndexName":"lsi1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
"GSIList":[{"IndexName":"gsi1","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],
"TimeToLiveAttributeName":"ttl",
"SQLiteIndex":{"":[{"DynamoDBAttribute":{"AttributeName":"pk","AttributeType":"S"},"KeyType":"HASH","SQLiteColumnName":"hashKey","SQLiteDataType":"TEXT"},{"DynamoDBAttribute":{"AttributeName":"sk","AttributeType":"N"},"KeyType":"RANGE","SQLiteColumnName":"rangeKey","SQLiteDataType":"BLOB"}]}}`

const plainInfo = `{"Attributes":[{"AttributeName":"id","AttributeType":"B"}],"GSIList":[],
"SQLiteIndex":{"":[{"DynamoDBAttribute":{"AttributeName":"id","AttributeType":"B"},"KeyType":"HASH","SQLiteColumnName":"hashKey","SQLiteDataType":"BLOB"}]}}`

// OrdersItem is the one item of Orders, as DynamoDB Local writes it.
const OrdersItem = `{"ss":{"SS":["q"]},"a":{"NS":["1","2"]},"bs":{"BS":["AQ==","Ag=="]},"g":{"B":"AAEC"},"sk":{"N":"1.5"},"pk":{"S":"a"},"l":{"S":"x"},"m":{"M":{"x":{"L":[{"NULL":true},{"BOOL":false}]}}},"ttl":{"N":"99999999999"}}`

// PlainItem is the one item of Plain.
const PlainItem = `{"v":{"N":"-0.1"},"id":{"B":"/w=="}}`

// WriteFile writes a DynamoDB Local file at path: Orders (pay per
// request, on-demand maximums, an LSI, a GSI, TTL, a NEW_AND_OLD_IMAGES
// stream, one item) and Plain (provisioned 3/4, deletion protection, a
// disabled stream, one item).
func WriteFile(t testing.TB, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	for _, s := range schema {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
	_, err = db.Exec(`INSERT INTO dm (TableName, CreationDateTime, ReadCapacityUnits, WriteCapacityUnits, TableInfo, BillingMode, DeletionProtectionEnabled, MaxReadRequestUnits, MaxWriteRequestUnits)
		VALUES ('Orders', 1795569898042, 0, 0, ?, 1, NULL, 10, -1), ('Plain', 1795569968808, 3, 4, ?, 0, 'true', -1, -1)`, []byte(ordersInfo), []byte(plainInfo))
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO sm VALUES
		('arn:aws:dynamodb:ddblocal:000000000000:table/Orders/stream/2026-11-25T01:24:58.042', 'ENABLED', 'Orders', ?, 1795569898042, NULL),
		('arn:aws:dynamodb:ddblocal:000000000000:table/Plain/stream/2026-11-25T01:25:58.042', 'DISABLED', 'Plain', ?, 1795569958042, 1795569968042)`,
		[]byte(`{"StreamViewType":"NEW_AND_OLD_IMAGES","KeySchema":[]}`), []byte(`{"StreamViewType":"KEYS_ONLY","KeySchema":[]}`))
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO "Orders" (hashKey, rangeKey, hashValue, rangeValue, ObjectJSON) VALUES ('a', x'3E', x'FF', x'A5', ?)`, []byte(OrdersItem))
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO "Plain" (hashKey, hashValue, ObjectJSON) VALUES (x'2F77', x'FF', ?)`, []byte(PlainItem))
	require.NoError(t, err)
}
