package mcp

import (
	"context"
	"encoding/json"
	"fmt"
)

// Tables, TTL and tags.

func (s *Server) tableTools() []*tool {
	pArn := prop{name: "ResourceArn", typ: "string", desc: `the table's ARN (describe_table's TableArn), e.g. "arn:aws:dynamodb:us-east-1:000000000000:table/Orders"; or give TableName instead`}
	pTableOr := prop{name: "TableName", typ: "string", desc: `the table's name, in place of ResourceArn, e.g. "Orders"`}
	return []*tool{
		{name: "list_tables", title: "ListTables",
			schema: opSchema("ListTables", nil, prop{name: "ExclusiveStartTableName", typ: "string", desc: "LastEvaluatedTableName of the previous page"},
				prop{name: "Limit", typ: "integer", desc: "at most this many names (1 to 100)"}),
			desc: `Lists the namespace's tables (DynamoDB ListTables): {"TableNames": [...], "LastEvaluatedTableName": ...}. Example: {}.`,
			run:  s.passthrough(apiDynamoDB, "ListTables")},
		{name: "describe_table", title: "DescribeTable", schema: opSchema("DescribeTable", []string{"TableName"}, pTable),
			desc: `Describes a table (DynamoDB DescribeTable): keys, indexes, item count, billing, stream. Example: {"TableName": "Orders"}.`,
			run:  s.passthrough(apiDynamoDB, "DescribeTable")},
		{name: "create_table", title: "CreateTable", write: true,
			schema: opSchema("CreateTable", []string{"TableName", "KeySchema", "AttributeDefinitions"}, pTable,
				prop{name: "KeySchema", typ: "array", desc: `e.g. [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]`},
				prop{name: "AttributeDefinitions", typ: "array", desc: `the type (S, N, B) of each key attribute of the table and indexes`},
				prop{name: "BillingMode", typ: "string", enum: []string{"PAY_PER_REQUEST", "PROVISIONED"}},
				prop{name: "GlobalSecondaryIndexes", typ: "array", desc: `e.g. [{"IndexName": "byStatus", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]`},
				prop{name: "LocalSecondaryIndexes", typ: "array", desc: `as GSIs, with the table's partition key`},
				prop{name: "ProvisionedThroughput", typ: "object", desc: `{"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}`},
				prop{name: "StreamSpecification", typ: "object", desc: `e.g. {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}`},
				prop{name: "Tags", typ: "array", desc: `[{"Key": "team", "Value": "orders"}]`},
				prop{name: "DeletionProtectionEnabled", typ: "boolean"}),
			desc: `Creates a table (DynamoDB CreateTable): the answer says CREATING, as AWS's does, and the table is ACTIVE from the next request on. Example: {"TableName": "Orders", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}], "BillingMode": "PAY_PER_REQUEST"}.` + refNote,
			run:  s.passthrough(apiDynamoDB, "CreateTable")},
		{name: "update_table", title: "UpdateTable", write: true, destructive: true,
			schema: opSchema("UpdateTable", []string{"TableName"}, pTable,
				prop{name: "GlobalSecondaryIndexUpdates", typ: "array", desc: `one Create or Delete of a GSI, e.g. [{"Create": {"IndexName": "byStatus", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}}]`},
				prop{name: "AttributeDefinitions", typ: "array", desc: "the types of a new GSI's key attributes"},
				prop{name: "BillingMode", typ: "string", desc: "PAY_PER_REQUEST or PROVISIONED"},
				prop{name: "StreamSpecification", typ: "object", desc: `{"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"} or {"StreamEnabled": false}`}),
			desc: `Changes a table (DynamoDB UpdateTable): adds or deletes a GSI, switches billing, turns the stream on or off. Deleting a GSI deletes its entries (the table's items stay).` + refNote,
			run:  s.passthrough(apiDynamoDB, "UpdateTable")},
		{name: "delete_table", title: "DeleteTable", write: true, destructive: true, schema: opSchema("DeleteTable", []string{"TableName"}, pTable),
			desc: `Deletes a table and all its items (DynamoDB DeleteTable). The server takes a snapshot first: the answer's _dynamoemu note gives its id, and snapshot_restore with it brings the table back (restoring rewinds every table to that moment). Example: {"TableName": "Orders"}.`,
			run:  s.deleteTable},
		{name: "describe_ttl", title: "DescribeTimeToLive", schema: opSchema("DescribeTimeToLive", []string{"TableName"}, pTable),
			desc: `Says whether a table's TTL is on and its attribute (DynamoDB DescribeTimeToLive). Example: {"TableName": "Sessions"}.`,
			run:  s.passthrough(apiDynamoDB, "DescribeTimeToLive")},
		{name: "update_ttl", title: "UpdateTimeToLive", write: true,
			schema: opSchema("UpdateTimeToLive", []string{"TableName", "TimeToLiveSpecification"}, pTable,
				prop{name: "TimeToLiveSpecification", typ: "object", desc: `e.g. {"Enabled": true, "AttributeName": "expiresAt"}: items whose expiresAt (a Number of epoch seconds) is past are deleted by the sweeper`}),
			desc: `Turns a table's TTL on or off (DynamoDB UpdateTimeToLive). Expired items are deleted by the server's sweeper (every minute by default) or at once by sweep_ttl. Example: {"TableName": "Sessions", "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "expiresAt"}}.`,
			run:  s.passthrough(apiDynamoDB, "UpdateTimeToLive")},
		{name: "sweep_ttl", title: "Sweep expired TTL items", write: true, destructive: true, schema: schema{},
			desc: `Deletes now every expired item of every table with TTL on, in every namespace, and answers {"deleted": n}. A sweep that deletes more items than the server's threshold leaves a snapshot taken before it (snapshot_restore undoes it). Example: {}.`,
			run:  s.sweepTTL},
		{name: "list_tags", title: "ListTagsOfResource", schema: opSchema("ListTagsOfResource", nil, pArn, pTableOr),
			desc: `Lists a table's tags (DynamoDB ListTagsOfResource): {"Tags": [{"Key": ..., "Value": ...}]}. Example: {"TableName": "Orders"}.`,
			run:  s.tagged("ListTagsOfResource")},
		{name: "tag_resource", title: "TagResource", write: true,
			schema: opSchema("TagResource", []string{"Tags"}, pArn, pTableOr, prop{name: "Tags", typ: "array", desc: `e.g. [{"Key": "team", "Value": "orders"}]`}),
			desc:   `Adds or replaces tags of a table (DynamoDB TagResource). The tag dynamoemu:throttle=on|off turns capacity throttling on or off for the table. Example: {"TableName": "Orders", "Tags": [{"Key": "team", "Value": "orders"}]}.`,
			run:    s.tagged("TagResource")},
		{name: "untag_resource", title: "UntagResource", write: true,
			schema: opSchema("UntagResource", []string{"TagKeys"}, pArn, pTableOr, prop{name: "TagKeys", typ: "array", desc: `e.g. ["team"]`}),
			desc:   `Removes tags of a table (DynamoDB UntagResource). Example: {"TableName": "Orders", "TagKeys": ["team"]}.`,
			run:    s.tagged("UntagResource")},
	}
}

// deleteTable is DeleteTable after an automatic snapshot.
func (s *Server) deleteTable(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct{ TableName string }
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	// A table that is not there is DynamoDB's error, with no snapshot.
	if _, err := s.describe(ctx, in.TableName); err != nil {
		return nil, err
	}
	snap, note := s.autoSnapshot("before DeleteTable " + in.TableName)
	ans, err := s.eng.call(ctx, apiDynamoDB, "DeleteTable", args)
	if err != nil {
		if snap.ID != "" {
			_ = s.snaps.drop(s.emu, snap.ID) // nothing changed: nothing to undo
		}
		return nil, err
	}
	return withNotes(ans, note), nil
}

// sweepTTL sweeps expired items; the snapshot taken before is kept only
// when the sweep deleted more items than the threshold.
func (s *Server) sweepTTL(context.Context, json.RawMessage) (any, error) {
	snap, note := s.autoSnapshot("before a TTL sweep")
	n := s.emu.Clock().SweepTTL()
	if snap.ID != "" && n <= s.opts.SnapshotDeletes {
		_ = s.snaps.drop(s.emu, snap.ID)
		note = ""
	}
	b, _ := json.Marshal(map[string]int{"deleted": n})
	return withNotes(b, note), nil
}

// tagged is a tag operation that takes a TableName in place of
// ResourceArn.
func (s *Server) tagged(op string) func(context.Context, json.RawMessage) (any, error) {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		m := map[string]json.RawMessage{}
		if err := decode(args, &m); err != nil {
			return nil, err
		}
		if raw, ok := m["TableName"]; ok {
			if _, both := m["ResourceArn"]; both {
				return nil, inputErrorf("give ResourceArn or TableName, not both")
			}
			var table string
			if err := json.Unmarshal(raw, &table); err != nil {
				return nil, inputErrorf("TableName is a string")
			}
			d, err := s.describe(ctx, table)
			if err != nil {
				return nil, err
			}
			delete(m, "TableName")
			m["ResourceArn"], _ = json.Marshal(d.TableArn)
		} else if _, ok := m["ResourceArn"]; !ok {
			return nil, inputErrorf("give ResourceArn or TableName")
		}
		body, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		ans, err := s.eng.call(ctx, apiDynamoDB, op, body)
		if err != nil {
			return nil, err
		}
		if len(ans) == 0 {
			return json.RawMessage(fmt.Sprintf(`{"done":%q}`, op)), nil
		}
		return ans, nil
	}
}
