package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Query, Scan, PartiQL and the streams: the reads whose results the caps
// bound.

func (s *Server) readTools() []*tool {
	pSelect := prop{name: "Select", typ: "string", enum: []string{"ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT"}}
	pConsistent := prop{name: "ConsistentRead", typ: "boolean", desc: "not on a GSI"}
	pStmt := prop{name: "Statement", typ: "string", desc: `a PartiQL statement, e.g. "SELECT * FROM \"Orders\" WHERE pk = ?" or "UPDATE \"Orders\" SET status = 'PAID' WHERE pk = 'ORDER#1' AND sk = 'x'"`}
	pParams := prop{name: "Parameters", typ: "array", desc: `the values of the statement's ? in DynamoDB JSON, e.g. [{"S": "ORDER#1"}]`}
	pStream := prop{name: "StreamArn", typ: "string", desc: "a stream's ARN (describe_table's LatestStreamArn, or list_streams)"}
	return []*tool{
		{name: "query", title: "Query",
			schema: opSchema("Query", []string{"TableName", "KeyConditionExpression"}, pTable, pIndex,
				prop{name: "KeyConditionExpression", typ: "string", desc: `e.g. "pk = :pk AND begins_with(sk, :p)"; sort key: =, <, <=, >, >=, BETWEEN, begins_with`},
				pFilter, pNames, pValues, pProj, pLimit, pStart, pSelect, pConsistent,
				prop{name: "ScanIndexForward", typ: "boolean", desc: "false: descending"}, pRCC),
			desc: `Reads one partition of a table or index in sort key order (DynamoDB Query). Example: {"TableName": "Orders", "KeyConditionExpression": "pk = :pk", "ExpressionAttributeValues": {":pk": {"S": "CUSTOMER#7"}}, "ScanIndexForward": false}. A page is at most 1 MB and the server's caps: pass LastEvaluatedKey as ExclusiveStartKey for the next.` + refNote,
			run:  s.page("Query")},
		{name: "scan", title: "Scan",
			schema: opSchema("Scan", []string{"TableName"}, pTable, pIndex, pFilter, pNames, pValues, pProj, pLimit, pStart, pSelect, pConsistent,
				prop{name: "Segment", typ: "integer", desc: "parallel scan"},
				prop{name: "TotalSegments", typ: "integer", desc: "parallel scan"}, pRCC),
			desc: `Reads a whole table or index (DynamoDB Scan); every item read is paid for, filter or not: a read a key or index serves should be a query. Example: {"TableName": "Orders", "FilterExpression": "#s = :s", "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":s": {"S": "OPEN"}}}. Pages as query does.` + refNote,
			run:  s.page("Scan")},
		{name: "execute_statement", title: "ExecuteStatement (PartiQL)", destructive: true, dynamicWrite: statementsWrite,
			schema: opSchema("ExecuteStatement", []string{"Statement"}, pStmt, pParams, prop{name: "NextToken", typ: "string", desc: "the previous answer's NextToken, for the next page"},
				prop{name: "Limit", typ: "integer", desc: "the most items to evaluate (lowered to the server's item cap)"},
				prop{name: "ConsistentRead", typ: "boolean", desc: "strongly consistent"}, pRCC),
			desc: `Runs one PartiQL statement (DynamoDB ExecuteStatement): SELECT, INSERT, UPDATE or DELETE. A SELECT with the partition key in its WHERE is a Query, without it a Scan. A read-only server runs SELECT alone.
Example: {"Statement": "SELECT * FROM \"Orders\" WHERE pk = ? AND begins_with(sk, ?)", "Parameters": [{"S": "CUSTOMER#7"}, {"S": "2024-"}]}.` + refNote,
			run: s.executeStatement},
		{name: "batch_execute_statement", title: "BatchExecuteStatement (PartiQL)", destructive: true, dynamicWrite: statementsWrite,
			schema: opSchema("BatchExecuteStatement", []string{"Statements"}, prop{name: "Statements", typ: "array",
				desc: `up to 25 statements, each {"Statement": "...", "Parameters": [...]}: all reads (SELECT by full key) or all writes`}, pRCC),
			desc: `Runs up to 25 PartiQL statements, each on its own (DynamoDB BatchExecuteStatement): an answer per statement, errors per statement. More DELETEs than the server's threshold take a snapshot first.` + refNote,
			run:  s.statementBatch("BatchExecuteStatement", "Statements")},
		{name: "execute_transaction", title: "ExecuteTransaction (PartiQL)", destructive: true, dynamicWrite: statementsWrite,
			schema: opSchema("ExecuteTransaction", []string{"TransactStatements"}, prop{name: "TransactStatements", typ: "array",
				desc: `up to 100 statements, all done or none, each {"Statement": "...", "Parameters": [...]}`},
				prop{name: "ClientRequestToken", typ: "string", desc: "idempotency token"}, pRCC),
			desc: `Runs up to 100 PartiQL statements atomically (DynamoDB ExecuteTransaction): all SELECTs or all writes. More DELETEs than the server's threshold take a snapshot first.` + refNote,
			run:  s.statementBatch("ExecuteTransaction", "TransactStatements")},
		{name: "list_streams", title: "ListStreams",
			schema: opSchema("ListStreams", nil, prop{name: "TableName", typ: "string", desc: "only this table's streams"},
				prop{name: "Limit", typ: "integer", desc: "optional"}, prop{name: "ExclusiveStartStreamArn", typ: "string", desc: "LastEvaluatedStreamArn of the previous page"}),
			desc: `Lists the streams of the namespace's tables (DynamoDB Streams ListStreams): {"Streams": [{"StreamArn", "TableName", "StreamLabel"}]}. Example: {"TableName": "Orders"}.`,
			run:  s.passthrough(apiStreams, "ListStreams")},
		{name: "describe_stream", title: "DescribeStream", schema: opSchema("DescribeStream", []string{"StreamArn"}, pStream),
			desc: `Describes a stream (DynamoDB Streams DescribeStream): its view type, status and shards.`,
			run:  s.passthrough(apiStreams, "DescribeStream")},
		{name: "read_stream", title: "Read a table's stream",
			schema: schema{props: []prop{
				{name: "TableName", typ: "string", desc: "the table whose latest stream to read (or StreamArn)"}, pStream,
				{name: "ShardIteratorType", typ: "string", desc: "TRIM_HORIZON (from the oldest record kept, the default) or LATEST (only records written from now)", enum: []string{"TRIM_HORIZON", "LATEST"}},
				{name: "Limit", typ: "integer", desc: "the most records (lowered to the server's item cap)"}}},
			desc: `Reads the records of a table's stream across its shards (DescribeStream, GetShardIterator, GetRecords): each record's eventName (INSERT, MODIFY, REMOVE), keys and images as the stream's view type keeps them. The answer gives each shard's NextShardIterator for get_records.
Example: {"TableName": "Orders", "Limit": 20}. The table needs a stream (create_table or update_table with StreamSpecification); records are kept 24 hours.`,
			run: s.readStream},
		{name: "get_records", title: "GetRecords",
			schema: opSchema("GetRecords", []string{"ShardIterator"}, prop{name: "ShardIterator", typ: "string", desc: "a NextShardIterator from read_stream or get_records"},
				prop{name: "Limit", typ: "integer", desc: "the most records"}),
			desc: `Reads the next records of one shard (DynamoDB Streams GetRecords) from a shard iterator; NextShardIterator reads on.`,
			run:  s.getRecords},
	}
}

// page is Query or Scan with the item and byte caps.
func (s *Server) page(op string) func(context.Context, json.RawMessage) (any, error) {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		var in struct{ TableName, IndexName string }
		if err := decode(args, &in); err != nil {
			return nil, err
		}
		body, limitNote, err := s.lowerLimit(args)
		if err != nil {
			return nil, err
		}
		ans, err := s.eng.call(ctx, apiDynamoDB, op, body)
		if err != nil {
			return nil, err
		}
		var probe struct {
			ScannedCount     int
			LastEvaluatedKey json.RawMessage
		}
		_ = json.Unmarshal(ans, &probe)
		if probe.LastEvaluatedKey == nil || probe.ScannedCount < s.opts.MaxItems {
			limitNote = "" // the cap did not end this page (Limit counts the items read, filter or not)
		}
		ans, byteNote, err := s.fitPage(ctx, in.TableName, in.IndexName, ans)
		if err != nil {
			return nil, err
		}
		return fitted(withNotes(ans, limitNote, byteNote)), nil
	}
}

// statementWrites reports whether a PartiQL statement writes: anything
// but SELECT (and EXISTS, a transaction's condition).
func statementWrites(stmt string) bool {
	f := strings.Fields(stmt)
	if len(f) == 0 {
		return false // DynamoDB says what is wrong with it
	}
	first := strings.ToUpper(f[0])
	return first != "SELECT" && first != "EXISTS"
}

// statementsOf returns the statements of a PartiQL tool's arguments.
func statementsOf(args json.RawMessage) []string {
	var in struct {
		Statement          *string
		Statements         []struct{ Statement string }
		TransactStatements []struct{ Statement string }
	}
	_ = json.Unmarshal(args, &in)
	var out []string
	if in.Statement != nil {
		out = append(out, *in.Statement)
	}
	for _, st := range append(in.Statements, in.TransactStatements...) {
		out = append(out, st.Statement)
	}
	return out
}

// statementsWrite reports whether any statement of a PartiQL tool's
// arguments writes: what a read-only server refuses.
func statementsWrite(args json.RawMessage) bool {
	for _, st := range statementsOf(args) {
		if statementWrites(st) {
			return true
		}
	}
	return false
}

// statementBatch is BatchExecuteStatement or ExecuteTransaction, with an
// automatic snapshot before many DELETEs.
func (s *Server) statementBatch(op, member string) func(context.Context, json.RawMessage) (any, error) {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		n := 0
		for _, st := range statementsOf(args) {
			if f := strings.Fields(st); len(f) > 0 && strings.EqualFold(f[0], "DELETE") {
				n++
			}
		}
		note := s.snapshotDeletes(op, n, []string{"PartiQL DELETE statements"})
		ans, err := s.eng.call(ctx, apiDynamoDB, op, args)
		if err != nil {
			return nil, s.withSnapshotNote(err, note)
		}
		ans, byteNote, err := s.fitItemList(ans, "Responses", "send fewer statements at once")
		if err != nil {
			return nil, err
		}
		return fitted(withNotes(ans, note, byteNote)), nil
	}
}

// readStream reads a stream's records across its shards.
func (s *Server) readStream(ctx context.Context, args json.RawMessage) (any, error) {
	var in struct {
		TableName, StreamArn, ShardIteratorType string
		Limit                                   int
	}
	if err := decode(args, &in); err != nil {
		return nil, err
	}
	switch {
	case in.TableName == "" && in.StreamArn == "":
		return nil, inputErrorf("give TableName or StreamArn")
	case in.TableName != "" && in.StreamArn != "":
		return nil, inputErrorf("give TableName or StreamArn, not both")
	}
	if in.ShardIteratorType == "" {
		in.ShardIteratorType = "TRIM_HORIZON"
	}
	if in.Limit <= 0 || in.Limit > s.opts.MaxItems {
		in.Limit = s.opts.MaxItems
	}
	if in.TableName != "" {
		d, err := s.describe(ctx, in.TableName)
		if err != nil {
			return nil, err
		}
		if d.LatestStreamArn == "" {
			return nil, fmt.Errorf("table %q has no stream: turn one on with update_table and StreamSpecification {\"StreamEnabled\": true, \"StreamViewType\": \"NEW_AND_OLD_IMAGES\"}", in.TableName)
		}
		in.StreamArn = d.LatestStreamArn
	}
	var desc struct {
		StreamDescription struct {
			StreamViewType string
			Shards         []struct{ ShardId string }
		}
	}
	if _, err := s.eng.callJSON(ctx, apiStreams, "DescribeStream", map[string]string{"StreamArn": in.StreamArn}, &desc); err != nil {
		return nil, err
	}
	type shardNext struct {
		ShardId           string
		NextShardIterator string `json:",omitempty"`
	}
	out := struct {
		StreamArn      string
		StreamViewType string
		Records        []json.RawMessage
		Shards         []shardNext
	}{StreamArn: in.StreamArn, StreamViewType: desc.StreamDescription.StreamViewType, Records: []json.RawMessage{}}
	for _, sh := range desc.StreamDescription.Shards {
		var it struct{ ShardIterator string }
		if _, err := s.eng.callJSON(ctx, apiStreams, "GetShardIterator", map[string]string{
			"StreamArn": in.StreamArn, "ShardId": sh.ShardId, "ShardIteratorType": in.ShardIteratorType}, &it); err != nil {
			return nil, err
		}
		next := it.ShardIterator
		for next != "" && len(out.Records) < in.Limit {
			var recs struct {
				Records           []json.RawMessage
				NextShardIterator string
			}
			if _, err := s.eng.callJSON(ctx, apiStreams, "GetRecords", map[string]any{"ShardIterator": next, "Limit": in.Limit - len(out.Records)}, &recs); err != nil {
				return nil, err
			}
			out.Records = append(out.Records, recs.Records...)
			next = recs.NextShardIterator
			if len(recs.Records) == 0 {
				break // caught up with the shard
			}
		}
		out.Shards = append(out.Shards, shardNext{ShardId: sh.ShardId, NextShardIterator: next})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	ans, note, err := s.fitItemList(b, "Records", "read on with get_records from a shard's NextShardIterator and a smaller Limit")
	if err != nil {
		return nil, err
	}
	return fitted(withNotes(ans, note)), nil
}

// getRecords is GetRecords with the caps.
func (s *Server) getRecords(ctx context.Context, args json.RawMessage) (any, error) {
	body, _, err := s.lowerLimit(args)
	if err != nil {
		return nil, err
	}
	ans, err := s.eng.call(ctx, apiStreams, "GetRecords", body)
	if err != nil {
		return nil, err
	}
	ans, note, err := s.fitItemList(ans, "Records", "call again with a smaller Limit")
	if err != nil {
		return nil, err
	}
	return fitted(withNotes(ans, note)), nil
}
