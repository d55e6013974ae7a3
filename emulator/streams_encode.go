package emulator

import (
	"strconv"
)

// GetRecordsOutput is the GetRecords response: the records, encoded by
// appendJSON straight from what the stream keeps.
type GetRecordsOutput struct {
	s    *stream
	recs []streamRecord
	next string // NextShardIterator; "" once a closed shard is read to its end
}

// appendJSON writes {"Records":[...],"NextShardIterator":"..."}.
func (o *GetRecordsOutput) appendJSON(b []byte) []byte {
	b = append(b, `{"Records":[`...)
	for i := range o.recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = o.s.appendRecord(b, &o.recs[i])
	}
	b = append(b, ']')
	if o.next != "" {
		b = append(b, `,"NextShardIterator":`...)
		b = appendString(b, o.next)
	}
	return append(b, '}')
}

// appendRecord writes one record as AWS shapes it.
func (s *stream) appendRecord(b []byte, r *streamRecord) []byte {
	b = append(b, `{"eventID":"`...)
	b = append(b, s.idPrefix...)
	b = append(b, hex16(r.seq)...)
	b = append(b, `","eventName":"`...)
	b = append(b, eventNames[r.event]...)
	b = append(b, `","eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":`...)
	b = appendString(b, s.region)
	b = append(b, `,"dynamodb":{"ApproximateCreationDateTime":`...)
	b = strconv.AppendInt(b, r.at, 10)
	b = append(b, `,"Keys":`...)
	keys := s.schema.KeyItem(r.key)
	b = appendItem(b, keys)
	if r.newImg != nil {
		b = append(b, `,"NewImage":`...)
		b = appendItem(b, r.newImg)
	}
	if r.oldImg != nil {
		b = append(b, `,"OldImage":`...)
		b = appendItem(b, r.oldImg)
	}
	b = append(b, `,"SequenceNumber":"`...)
	b = append(b, formatSequenceNumber(r.seq)...)
	b = append(b, `","SizeBytes":`...)
	b = strconv.AppendInt(b, int64(s.sizeBytes(r)), 10)
	b = append(b, `,"StreamViewType":"`...)
	b = append(b, s.viewType...)
	b = append(b, `"}`...)
	if r.service {
		b = append(b, `,"userIdentity":{"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"}`...)
	}
	return append(b, '}')
}
