package lambdaesm

import (
	"encoding/base64"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A record as a filter pattern sees it: the fields of the record as
// Lambda's event holds it (streamsapi.AppendRecord and eventSourceARN),
// read in place from the stream's record and its stored images, so a
// record is matched without being written as JSON and read back, and one
// no filter matches is never written at all. Each field is a node: a
// string, a number (its text), a boolean, null, a list or an object;
// DynamoDB's attribute values are objects of one member named by their
// type, as the JSON has them ({"S": "x"}, {"N": "5"}: a DynamoDB number is
// a string; B and BS are base64 text). TestRecordViewMatchesJSON checks
// that every pattern matches a record as it matches the record's JSON.

type nodeKind uint8

const (
	nodeAbsent nodeKind = iota
	nodeNull
	nodeBool
	nodeNumber
	nodeString
	nodeList
	nodeObject
)

// node is one field's value.
type node struct {
	kind nodeKind
	text string // a string; a number's text; "true"/"false"; "null"
	list []node
	obj  object
}

// object is a field whose value is an object: its members by name.
type object interface {
	field(name string) node
}

func (n node) scalar() bool { return n.kind >= nodeNull && n.kind <= nodeString }

// equal reports whether two scalars are the same value: the same kind
// and text (a number by its text, so 300 is not 300.0).
func (n node) equal(v node) bool { return n.kind == v.kind && n.text == v.text }

func strNode(s string) node   { return node{kind: nodeString, text: s} }
func numNode(s string) node   { return node{kind: nodeNumber, text: s} }
func objNode(o object) node   { return node{kind: nodeObject, obj: o} }
func boolNode(b bool) node    { return node{kind: nodeBool, text: strconv.FormatBool(b)} }
func b64Node(raw string) node { return strNode(base64.StdEncoding.EncodeToString([]byte(raw))) }

// recordView is a stream record with its stream.
type recordView struct {
	s service.Stream
	r *streamlog.Record
}

func (v recordView) field(name string) node {
	switch name {
	case "eventID":
		return strNode(string(streamlog.AppendHex16([]byte(v.s.EventIDPrefix()), v.r.Seq)))
	case "eventName":
		return strNode(v.r.Event.String())
	case "eventVersion":
		return strNode("1.1")
	case "eventSource":
		return strNode("aws:dynamodb")
	case "awsRegion":
		return strNode(v.s.Region())
	case "dynamodb":
		return objNode(dynamodbView(v))
	case "userIdentity":
		if v.r.Service {
			return objNode(serviceIdentity{})
		}
	case "eventSourceARN":
		return strNode(v.s.ARN())
	}
	return node{}
}

// dynamodbView is a record's "dynamodb" member.
type dynamodbView recordView

func (v dynamodbView) field(name string) node {
	switch name {
	case "ApproximateCreationDateTime":
		return numNode(strconv.FormatInt(v.r.At, 10))
	case "Keys":
		return objNode(keysView(v))
	case "NewImage":
		if v.r.HasNew {
			return objNode(imageView{v.r.New})
		}
	case "OldImage":
		if v.r.HasOld {
			return objNode(imageView{v.r.Old})
		}
	case "SequenceNumber":
		return strNode(streamlog.FormatSequenceNumber(v.r.Seq))
	case "SizeBytes":
		return numNode(strconv.Itoa(v.s.SizeBytes(v.r)))
	case "StreamViewType":
		return strNode(v.s.ViewType())
	}
	return node{}
}

// keysView is a record's Keys: its key attributes.
type keysView dynamodbView

func (v keysView) field(name string) node {
	ks := v.s.Schema()
	switch {
	case name == ks.Partition.Name:
		return objNode(scalarAttr{v.r.Key.Partition})
	case ks.HasSort() && name == ks.Sort.Name:
		return objNode(scalarAttr{v.r.Key.Sort})
	}
	return node{}
}

// serviceIdentity is the userIdentity of a deletion by TTL.
type serviceIdentity struct{}

func (serviceIdentity) field(name string) node {
	switch name {
	case "PrincipalId":
		return strNode("dynamodb.amazonaws.com")
	case "Type":
		return strNode("Service")
	}
	return node{}
}

// imageView is a stored image: its attributes.
type imageView struct{ e storage.EncodedItem }

func (v imageView) field(name string) node {
	a, ok := v.e.Attr(name)
	if !ok {
		return node{}
	}
	return objNode(encodedAttr{a})
}

// scalarAttr is a key attribute's value: {"S": ...}, {"N": ...} or {"B": ...}.
type scalarAttr struct{ v storage.Value }

func (a scalarAttr) field(name string) node {
	if name != a.v.Kind().String() {
		return node{}
	}
	if a.v.Kind() == storage.KindB {
		return b64Node(a.v.Str())
	}
	return strNode(a.v.Str())
}

// encodedAttr is a stored attribute value: an object of one member named
// by its type.
type encodedAttr struct{ v storage.EncodedValue }

func (a encodedAttr) field(name string) node {
	k := a.v.Kind()
	if name != k.String() {
		return node{}
	}
	switch k {
	case storage.KindS, storage.KindN:
		return strNode(a.v.Str())
	case storage.KindB:
		return b64Node(a.v.Str())
	case storage.KindBOOL:
		return boolNode(a.v.Bool())
	case storage.KindNULL:
		return boolNode(true)
	case storage.KindM:
		return objNode(mapAttr{a.v})
	}
	out := node{kind: nodeList, list: make([]node, 0, a.v.Len())}
	parts := a.v.Parts()
	for {
		_, e, ok := parts.Next()
		if !ok {
			break
		}
		switch k {
		case storage.KindL:
			out.list = append(out.list, objNode(encodedAttr{e}))
		case storage.KindBS:
			out.list = append(out.list, b64Node(e.Str()))
		default: // SS, NS
			out.list = append(out.list, strNode(e.Str()))
		}
	}
	return out
}

// mapAttr is an M value's entries.
type mapAttr struct{ v storage.EncodedValue }

func (m mapAttr) field(name string) node {
	e, ok := m.v.Field(name)
	if !ok {
		return node{}
	}
	return objNode(encodedAttr{e})
}
