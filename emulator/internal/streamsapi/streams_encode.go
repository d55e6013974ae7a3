package streamsapi

import (
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// GetRecordsOutput is the GetRecords response: the records, encoded by
// AppendJSON straight from what the stream keeps.
type GetRecordsOutput struct {
	s    service.Stream
	recs []streamlog.Record
	next string // NextShardIterator; "" once a closed shard is read to its end
}

// AppendJSON writes {"Records":[...],"NextShardIterator":"..."}
// (service.JSONAppender).
func (o *GetRecordsOutput) AppendJSON(b []byte) []byte {
	b = append(b, `{"Records":[`...)
	for i := range o.recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRecord(b, o.s, &o.recs[i], streamsIdentity)
	}
	b = append(b, ']')
	if o.next != "" {
		b = append(b, `,"NextShardIterator":`...)
		b = wire.AppendString(b, o.next)
	}
	return append(b, '}')
}

// The userIdentity of a deletion by TTL, in each shape. GetRecords
// answers with the Streams API's Identity shape, whose members are
// PrincipalId and Type (the DynamoDB Streams API reference, Identity);
// Lambda's events name them principalId and type ("DynamoDB Streams and
// Time to Live" in DynamoDB's developer guide: the record's
// userIdentity, and the filter {"userIdentity": {"type": ["Service"],
// "principalId": ["dynamodb.amazonaws.com"]}} that archives TTL
// deletions).
const (
	streamsIdentity = `,"userIdentity":{"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"}`
	eventIdentity   = `,"userIdentity":{"principalId":"dynamodb.amazonaws.com","type":"Service"}`
)

// appendRecord writes one record as AWS shapes it, identity the
// userIdentity member a deletion by TTL has.
func appendRecord(b []byte, s service.Stream, r *streamlog.Record, identity string) []byte {
	b = append(b, `{"eventID":"`...)
	b = append(b, s.EventIDPrefix()...)
	b = streamlog.AppendHex16(b, r.Seq)
	b = append(b, `","eventName":"`...)
	b = append(b, r.Event.String()...)
	b = append(b, `","eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":`...)
	b = wire.AppendString(b, s.Region())
	b = append(b, `,"dynamodb":{"ApproximateCreationDateTime":`...)
	b = strconv.AppendInt(b, r.At, 10)
	b = append(b, `,"Keys":`...)
	b = appendKeys(b, s.Schema(), r.Key)
	if r.HasNew {
		b = append(b, `,"NewImage":`...)
		b = wire.AppendStoredItem(b, r.New)
	}
	if r.HasOld {
		b = append(b, `,"OldImage":`...)
		b = wire.AppendStoredItem(b, r.Old)
	}
	b = append(b, `,"SequenceNumber":"`...)
	b = streamlog.AppendSequenceNumber(b, r.Seq)
	b = append(b, `","SizeBytes":`...)
	b = strconv.AppendInt(b, int64(s.SizeBytes(r)), 10)
	b = append(b, `,"StreamViewType":"`...)
	b = append(b, s.ViewType()...)
	b = append(b, `"}`...)
	if r.Service {
		b = append(b, identity...)
	}
	return append(b, '}')
}

// appendKeys writes a record's Keys: the key attributes in name order, as
// AppendItem writes an item.
func appendKeys(b []byte, schema storage.KeySchema, k storage.Key) []byte {
	names := [2]string{schema.Partition.Name, schema.Sort.Name}
	vals := [2]storage.Value{k.Partition, k.Sort}
	n := 1
	if schema.HasSort() {
		n = 2
		if names[1] < names[0] {
			names[0], names[1] = names[1], names[0]
			vals[0], vals[1] = vals[1], vals[0]
		}
	}
	b = append(b, '{')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(wire.AppendString(b, names[i]), ':')
		b = wire.AppendValue(b, vals[i])
	}
	return append(b, '}')
}

// AppendEventRecord writes one record of s as a Lambda event holds it
// (the lambdaesm feature): the record GetRecords answers with, its
// userIdentity in Lambda's keys (principalId, type), and its
// eventSourceARN, the stream's ARN (the example event of "Using AWS
// Lambda with Amazon DynamoDB" in Lambda's developer guide).
func AppendEventRecord(b []byte, s service.Stream, r *streamlog.Record) []byte {
	b = appendRecord(b, s, r, eventIdentity)
	b = append(b[:len(b)-1], `,"eventSourceARN":`...)
	b = wire.AppendString(b, s.ARN())
	return append(b, '}')
}
