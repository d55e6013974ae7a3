package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The DynamoDB tools: each takes its operation's request as the AWS API
// reference gives it (DynamoDB JSON) and answers DynamoDB's response, with
// the server's notes (caps, automatic snapshots) in "_dynamoemu".

// Properties the DynamoDB tools share.
var (
	pTable  = prop{name: "TableName", typ: "string", desc: `the table's name, e.g. "Orders"`}
	pKey    = prop{name: "Key", typ: "object", desc: `the item's full primary key in DynamoDB JSON, e.g. {"pk": {"S": "ORDER#1"}, "sk": {"S": "2024-05-01"}}`}
	pItem   = prop{name: "Item", typ: "object", desc: `the whole item in DynamoDB JSON, key attributes included, e.g. {"pk": {"S": "ORDER#1"}, "sk": {"S": "2024-05-01"}, "total": {"N": "12.50"}, "tags": {"SS": ["new"]}}`}
	pCond   = prop{name: "ConditionExpression", typ: "string", desc: `optional: the write happens only if this holds, e.g. "attribute_not_exists(pk)"; otherwise ConditionalCheckFailedException and nothing changes`}
	pNames  = prop{name: "ExpressionAttributeNames", typ: "object", desc: `optional: placeholders for attribute names, e.g. {"#s": "status"}`}
	pValues = prop{name: "ExpressionAttributeValues", typ: "object", desc: `optional: placeholders for values in DynamoDB JSON, e.g. {":paid": {"S": "PAID"}}`}
	pProj   = prop{name: "ProjectionExpression", typ: "string", desc: `optional: the attributes to return, e.g. "pk, total, #s"`}
	pRCC    = prop{name: "ReturnConsumedCapacity", typ: "string", desc: "optional: INDEXES, TOTAL or NONE: the capacity units the call consumed, per table and index", enum: []string{"INDEXES", "TOTAL", "NONE"}}
	pRV     = prop{name: "ReturnValues", typ: "string", desc: "optional: NONE, ALL_OLD, UPDATED_OLD, ALL_NEW or UPDATED_NEW (as the operation allows)"}
	pIndex  = prop{name: "IndexName", typ: "string", desc: `optional: a GSI or LSI to read instead of the table, e.g. "byStatus"`}
	pLimit  = prop{name: "Limit", typ: "integer", desc: "optional: the most items to evaluate (the server lowers it to its item cap)"}
	pFilter = prop{name: "FilterExpression", typ: "string", desc: `optional: drops items after they are read (they are still read and paid for), e.g. "#s = :paid"`}
	pStart  = prop{name: "ExclusiveStartKey", typ: "object", desc: "optional: the LastEvaluatedKey of the previous page, to read the next one"}
)

// passthrough sends the arguments as op's request.
func (s *Server) passthrough(api, op string) func(context.Context, json.RawMessage) (any, error) {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		return s.eng.call(ctx, api, op, args)
	}
}

const refNote = " Takes the operation's request as in the AWS DynamoDB API reference (members without a description too); an unknown member is refused."

func (s *Server) itemTools() []*tool {
	return []*tool{
		{name: "get_item", title: "GetItem", schema: opSchema("GetItem", []string{"TableName", "Key"}, pTable, pKey, pProj, pNames,
			prop{name: "ConsistentRead", typ: "boolean", desc: "optional: true for a strongly consistent read"}, pRCC),
			desc: `Reads one item by its full primary key (DynamoDB GetItem). Answers {"Item": {...}} in DynamoDB JSON, or {} when there is no such item.
Example: {"TableName": "Orders", "Key": {"pk": {"S": "ORDER#1"}, "sk": {"S": "2024-05-01"}}}.` + refNote,
			run: s.getItem},
		{name: "put_item", title: "PutItem", write: true, destructive: true,
			schema: opSchema("PutItem", []string{"TableName", "Item"}, pTable, pItem, pCond, pNames, pValues, pRV, pRCC),
			desc: `Creates an item or replaces the item with the same key whole (DynamoDB PutItem). Items are at most 400 KB.
Example: {"TableName": "Orders", "Item": {"pk": {"S": "ORDER#1"}, "sk": {"S": "2024-05-01"}, "total": {"N": "12.50"}}, "ConditionExpression": "attribute_not_exists(pk)"}.` + refNote,
			run: s.passthrough(apiDynamoDB, "PutItem")},
		{name: "update_item", title: "UpdateItem", write: true, destructive: true,
			schema: opSchema("UpdateItem", []string{"TableName", "Key"}, pTable, pKey,
				prop{name: "UpdateExpression", typ: "string", desc: `SET, REMOVE, ADD, DELETE clauses, e.g. "SET #s = :paid, total = total + :t REMOVE draft"`},
				pCond, pNames, pValues, pRV, pRCC),
			desc: `Changes some attributes of one item, creating it if need be (DynamoDB UpdateItem).
Example: {"TableName": "Orders", "Key": {"pk": {"S": "ORDER#1"}, "sk": {"S": "2024-05-01"}}, "UpdateExpression": "SET #s = :paid", "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":paid": {"S": "PAID"}}, "ReturnValues": "ALL_NEW"}.` + refNote,
			run: s.passthrough(apiDynamoDB, "UpdateItem")},
		{name: "delete_item", title: "DeleteItem", write: true, destructive: true,
			schema: opSchema("DeleteItem", []string{"TableName", "Key"}, pTable, pKey, pCond, pNames, pValues, pRV, pRCC),
			desc: `Deletes one item by its full primary key (DynamoDB DeleteItem); deleting an item that is not there is no error.
Example: {"TableName": "Orders", "Key": {"pk": {"S": "ORDER#1"}, "sk": {"S": "2024-05-01"}}, "ReturnValues": "ALL_OLD"}.` + refNote,
			run: s.passthrough(apiDynamoDB, "DeleteItem")},
		{name: "batch_get_item", title: "BatchGetItem",
			schema: opSchema("BatchGetItem", []string{"RequestItems"}, prop{name: "RequestItems", typ: "object",
				desc: `per table, the keys to read (at most 100 in all), e.g. {"Orders": {"Keys": [{"pk": {"S": "ORDER#1"}, "sk": {"S": "2024-05-01"}}], "ProjectionExpression": "pk, total"}}`}, pRCC),
			desc: `Reads up to 100 items by key from one or more tables (DynamoDB BatchGetItem). Keys not read come back in UnprocessedKeys: send them again. Items past the server's caps are left out and their keys put in UnprocessedKeys too.` + refNote,
			run:  s.batchGet},
		{name: "batch_write_item", title: "BatchWriteItem", write: true, destructive: true,
			schema: opSchema("BatchWriteItem", []string{"RequestItems"}, prop{name: "RequestItems", typ: "object",
				desc: `per table, up to 25 PutRequest or DeleteRequest in all, e.g. {"Orders": [{"PutRequest": {"Item": {"pk": {"S": "ORDER#2"}, "sk": {"S": "x"}}}}, {"DeleteRequest": {"Key": {"pk": {"S": "ORDER#1"}, "sk": {"S": "x"}}}}]}`}, pRCC),
			desc: `Puts and deletes up to 25 items across tables (DynamoDB BatchWriteItem); no conditions, not atomic. Writes not done come back in UnprocessedItems. More deletes than the server's threshold take a snapshot first (snapshot_restore undoes the batch).` + refNote,
			run:  s.batchWrite},
		{name: "transact_get_items", title: "TransactGetItems",
			schema: opSchema("TransactGetItems", []string{"TransactItems"}, prop{name: "TransactItems", typ: "array",
				desc: `up to 100 reads that see one point in time, e.g. [{"Get": {"TableName": "Orders", "Key": {"pk": {"S": "ORDER#1"}, "sk": {"S": "x"}}}}]`}, pRCC),
			desc: `Reads up to 100 items atomically (DynamoDB TransactGetItems): Responses in the order of TransactItems.` + refNote,
			run:  s.transactGet},
		{name: "transact_write_items", title: "TransactWriteItems", write: true, destructive: true,
			schema: opSchema("TransactWriteItems", []string{"TransactItems"}, prop{name: "TransactItems", typ: "array",
				desc: `up to 100 actions, all done or none: Put, Update, Delete, ConditionCheck, e.g. [{"Put": {"TableName": "Orders", "Item": {...}, "ConditionExpression": "attribute_not_exists(pk)"}}, {"Update": {"TableName": "Stock", "Key": {...}, "UpdateExpression": "SET n = n - :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}]`},
				prop{name: "ClientRequestToken", typ: "string", desc: "optional: makes the call idempotent for 10 minutes"}, pRCC),
			desc: `Writes up to 100 items atomically (DynamoDB TransactWriteItems): a failed condition cancels all (TransactionCanceledException with a reason per action). More deletes than the server's threshold take a snapshot first.` + refNote,
			run:  s.transactWrite},
	}
}

// getItem is GetItem; an item over the byte cap comes whole, with a
// note, never cut.
func (s *Server) getItem(ctx context.Context, args json.RawMessage) (any, error) {
	ans, err := s.eng.call(ctx, apiDynamoDB, "GetItem", args)
	if err != nil || len(ans) <= s.opts.MaxBytes {
		return ans, err
	}
	return fitted(withNotes(ans, s.oversizeNote(len(ans)))), nil
}

// batchGet is BatchGetItem, fitted to the caps.
func (s *Server) batchGet(ctx context.Context, args json.RawMessage) (any, error) {
	ans, err := s.eng.call(ctx, apiDynamoDB, "BatchGetItem", args)
	if err != nil {
		return nil, err
	}
	ans, note, err := s.fitBatchGet(args, ans)
	if err != nil {
		return nil, err
	}
	return fitted(withNotes(ans, note)), nil
}

// deletesOf counts the deletes of a BatchWriteItem or TransactWriteItems
// request, and names their tables.
func deletesOf(args json.RawMessage) (int, []string) {
	var b struct {
		RequestItems  map[string][]struct{ DeleteRequest *json.RawMessage }
		TransactItems []struct{ Delete *struct{ TableName string } }
	}
	_ = json.Unmarshal(args, &b)
	n, tables := 0, map[string]bool{}
	for table, reqs := range b.RequestItems {
		for _, r := range reqs {
			if r.DeleteRequest != nil {
				n++
				tables[table] = true
			}
		}
	}
	for _, a := range b.TransactItems {
		if a.Delete != nil {
			n++
			tables[a.Delete.TableName] = true
		}
	}
	return n, sortedNames(tables)
}

// snapshotDeletes takes the automatic snapshot before a call of op that
// deletes n items of tables, when n is over the threshold.
func (s *Server) snapshotDeletes(op string, n int, tables []string) string {
	if n <= s.opts.SnapshotDeletes {
		return ""
	}
	_, note := s.autoSnapshot(fmt.Sprintf("before %s deleting %d items of %s", op, n, strings.Join(tables, ", ")))
	return note
}

// batchWrite is BatchWriteItem, with an automatic snapshot before many
// deletes.
func (s *Server) batchWrite(ctx context.Context, args json.RawMessage) (any, error) {
	n, tables := deletesOf(args)
	note := s.snapshotDeletes("BatchWriteItem", n, tables)
	ans, err := s.eng.call(ctx, apiDynamoDB, "BatchWriteItem", args)
	if err != nil {
		return nil, s.withSnapshotNote(err, note)
	}
	return withNotes(ans, note), nil
}

// transactGet is TransactGetItems, fitted to the byte cap.
func (s *Server) transactGet(ctx context.Context, args json.RawMessage) (any, error) {
	ans, err := s.eng.call(ctx, apiDynamoDB, "TransactGetItems", args)
	if err != nil {
		return nil, err
	}
	ans, note, err := s.fitItemList(ans, "Responses", "read the rest with a TransactItems of their Gets alone")
	if err != nil {
		return nil, err
	}
	return fitted(withNotes(ans, note)), nil
}

// transactWrite is TransactWriteItems, with an automatic snapshot before
// many deletes.
func (s *Server) transactWrite(ctx context.Context, args json.RawMessage) (any, error) {
	n, tables := deletesOf(args)
	note := s.snapshotDeletes("TransactWriteItems", n, tables)
	ans, err := s.eng.call(ctx, apiDynamoDB, "TransactWriteItems", args)
	if err != nil {
		return nil, s.withSnapshotNote(err, note)
	}
	return withNotes(ans, note), nil
}

// withSnapshotNote adds to a failed call's error that a snapshot was
// taken before it (the call changed nothing: DynamoDB refuses a request
// whole).
func (s *Server) withSnapshotNote(err error, note string) error {
	if note == "" {
		return err
	}
	return fmt.Errorf("%w (%s; the call changed nothing)", err, note)
}
