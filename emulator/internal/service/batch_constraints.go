package service

import (
	"bytes"
	"iter"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// AWS's answers to batch requests with no tables or too many requests for
// one table (AWS's recorded answers in us-east-1; DynamoDB Local answers
// "BatchGetItem must have some requests set" and "Too many items requested
// for the BatchGetItem call" instead).

// batchGetTableKeysConstraint is the violation of one table's Keys list
// longer than 100, as AWS words it (no echo, the member path in PascalCase):
// "Value at 'RequestItems.T.member.Keys' failed to satisfy constraint: Member
// must have length less than or equal to 100".
func batchGetTableKeysConstraint(name string, keys int) string {
	if keys <= maxBatchGetKeys {
		return ""
	}
	return apierr.Violation("", "RequestItems."+name+".member.Keys", apierr.LenLE(maxBatchGetKeys))
}

// batchWriteTableConstraint is the violation of a table with more than 25
// write requests: the whole RequestItems map echoed Java-style, as AWS
// does:
//
//	Value '{T=[WriteRequest(putRequest=PutRequest(item={pk=com.amazonaws.dynamodb.v20120810.AttributeValue@483470e1},
//	workloadProfileName=null), deleteRequest=null), ...]}' at 'requestItems' failed to satisfy constraint:
//	Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have
//	length greater than or equal to 1]
//
// AWS prints attribute values as Java object identities; the emulator
// prints a stable hash of each value in their place (cut at apierr.MaxEcho).
//
// A table with no requests gets the same answer (AWS's record:
// "Value '{T=[]}' at 'requestItems' ...").
//
// The violation is in pieces (apierr.Constraints.AddLong), nil when
// there is none: the echo of thousands of write requests is the size of
// the request, and is written once, into the answer's body.
func batchWriteTableConstraint(in *BatchWriteItemInput) iter.Seq[string] {
	over := false
	for name, reqs := range in.RequestItems {
		if n := len(reqs) + in.past.Len(name); n > maxBatchWrites || n == 0 {
			over = true
		}
	}
	if !over {
		return nil
	}
	echo := []string{writeRequestsEcho(in)}
	tail := "' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [" +
		apierr.LenLE(maxBatchWrites) + ", " + apierr.LenGE(1) + "]"
	return apierr.EchoPieces(echo, tail)
}

// echoKeep is how much of an echo is kept: the answer shows apierr.MaxEcho
// bytes of it, and whether the byte after them starts a rune.
const echoKeep = apierr.MaxEcho + 8

// writeRequestsEcho renders a BatchWriteItem RequestItems map as AWS
// echoes it, Java-style: each table's write requests kept, then those
// past them (limits.go), to what the answer shows (apierr.MaxEcho).
func writeRequestsEcho(in *BatchWriteItemInput) string {
	var b bytes.Buffer
	b.WriteString("{")
	for i, name := range sortedKeys(in.RequestItems) {
		if b.Len() > echoKeep {
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteString("=[")
		for j, wr := range in.RequestItems[name] {
			if b.Len() > echoKeep {
				break // past what the answer shows
			}
			writeRequestEchoAt(&b, j, wr)
		}
		b.Write(in.past.Echo(name))
		b.WriteString("]")
	}
	b.WriteString("}")
	return b.String()
}

// writeRequestEchoAt renders the write request at position j of its
// table's list (a separator before all but the first).
func writeRequestEchoAt(b *bytes.Buffer, j int, wr WriteRequest) {
	if j > 0 {
		b.WriteString(", ")
	}
	writeRequestEcho(b, wr)
}

func writeRequestEcho(b *bytes.Buffer, wr WriteRequest) {
	b.WriteString("WriteRequest(putRequest=")
	if wr.PutRequest != nil {
		b.WriteString("PutRequest(item=")
		itemEcho(b, wr.PutRequest.Item)
		b.WriteString(", workloadProfileName=null)")
	} else {
		b.WriteString("null")
	}
	b.WriteString(", deleteRequest=")
	if wr.DeleteRequest != nil {
		b.WriteString("DeleteRequest(key=")
		itemEcho(b, wr.DeleteRequest.Key)
		b.WriteString(")")
	} else {
		b.WriteString("null")
	}
	b.WriteString(")")
}

// attrValueID is what an attribute's echo shows before its value's hash.
const attrValueID = "=com.amazonaws.dynamodb.v20120810.AttributeValue@"

// echoNames is how many of an item's attributes its echo shows: as many
// as take the echo past what the answer shows of it (each at least its
// separator, its name's quote-less text, attrValueID and a digit). An
// item cut past the item size limit (wire.ItemHead) is read for no
// more names than these.
const echoNames = echoKeep/len(", "+attrValueID+"0") + 2

// itemEcho renders an item as the echo shows it: its attributes by
// name, each with its value's hash, the first echoNames of them.
func itemEcho(b *bytes.Buffer, it wire.WireItem) {
	if it == nil {
		b.WriteString("null")
		return
	}
	b.WriteString("{")
	names, values := wire.ItemHead(it, echoNames)
	for i, name := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteString(attrValueID)
		// The value's JSON is hashed in b's room past its end, which the
		// hash's digits then overwrite: no buffer a value.
		crc := wire.EchoHash(b.AvailableBuffer(), values[i])
		b.Write(strconv.AppendUint(b.AvailableBuffer(), uint64(crc), 16))
	}
	b.WriteString("}")
}
