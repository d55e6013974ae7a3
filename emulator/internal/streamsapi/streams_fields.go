package streamsapi

import (
	"encoding/base64"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A record's fields as a Lambda event holds them (AppendEventRecord, but
// for its eventSourceARN), read in place from the stream's record and
// its stored images: what Lambda's event filtering matches
// (emulator/internal/lambdaesm), without the
// record written as JSON and read back. Each field is a Field: a string,
// a number (its text), a boolean, null, a list or an object; DynamoDB's
// attribute values are objects of one member named by their type, as the
// JSON has them ({"S": "x"}, {"N": "5"}: a DynamoDB number is a string;
// B and BS are base64 text). lambdaesm's TestRecordViewMatchesJSON checks
// that every filter pattern matches the fields as it matches the JSON.

// FieldKind is what a Field holds.
type FieldKind uint8

// Field kinds.
const (
	FieldAbsent FieldKind = iota // no such field
	FieldNull
	FieldBool
	FieldNumber
	FieldString
	FieldList
	FieldObject
)

// Field is one field's value.
type Field struct {
	Kind FieldKind
	Text string // a string; a number's text; "true"/"false"; "null"
	List []Field
	Obj  Object
}

// Object is a field whose value is an object: its members by name.
type Object interface {
	Field(name string) Field
}

// Scalar reports whether f is a string, a number, a boolean or null.
func (f Field) Scalar() bool { return f.Kind >= FieldNull && f.Kind <= FieldString }

// Equal reports whether two scalars are the same value: the same kind
// and text (a number by its text, so 300 is not 300.0).
func (f Field) Equal(v Field) bool { return f.Kind == v.Kind && f.Text == v.Text }

// RecordFields is the record r of s as an Object: eventID, eventName,
// eventVersion, eventSource, awsRegion, dynamodb (its members and the
// images' attributes) and, for a deletion by TTL, userIdentity (with
// Lambda's keys: principalId, type).
func RecordFields(s service.Stream, r *streamlog.Record) Object { return recordView{s, r} }

// StringField is the string s.
func StringField(s string) Field { return Field{Kind: FieldString, Text: s} }

// NumberField is the number whose text is s.
func NumberField(s string) Field { return Field{Kind: FieldNumber, Text: s} }

// ObjectField is the object o.
func ObjectField(o Object) Field { return Field{Kind: FieldObject, Obj: o} }

// BoolField is the boolean b.
func BoolField(b bool) Field { return Field{Kind: FieldBool, Text: strconv.FormatBool(b)} }

func b64Field(raw string) Field { return StringField(base64.StdEncoding.EncodeToString([]byte(raw))) }

// recordView is a stream record with its stream (RecordFields).
type recordView struct {
	s service.Stream
	r *streamlog.Record
}

func (v recordView) Field(name string) Field {
	switch name {
	case "eventID":
		return StringField(string(streamlog.AppendHex16([]byte(v.s.EventIDPrefix()), v.r.Seq)))
	case "eventName":
		return StringField(v.r.Event.String())
	case "eventVersion":
		return StringField("1.1")
	case "eventSource":
		return StringField("aws:dynamodb")
	case "awsRegion":
		return StringField(v.s.Region())
	case "dynamodb":
		return ObjectField(dynamodbView(v))
	case "userIdentity":
		if v.r.Service {
			return ObjectField(serviceIdentity{})
		}
	}
	return Field{}
}

// dynamodbView is a record's "dynamodb" member.
type dynamodbView recordView

func (v dynamodbView) Field(name string) Field {
	switch name {
	case "ApproximateCreationDateTime":
		return NumberField(strconv.FormatInt(v.r.At, 10))
	case "Keys":
		return ObjectField(keysView(v))
	case "NewImage":
		if v.r.HasNew {
			return ObjectField(imageView{v.r.New})
		}
	case "OldImage":
		if v.r.HasOld {
			return ObjectField(imageView{v.r.Old})
		}
	case "SequenceNumber":
		return StringField(streamlog.FormatSequenceNumber(v.r.Seq))
	case "SizeBytes":
		return NumberField(strconv.Itoa(v.s.SizeBytes(v.r)))
	case "StreamViewType":
		return StringField(v.s.ViewType())
	}
	return Field{}
}

// keysView is a record's Keys: its key attributes.
type keysView dynamodbView

func (v keysView) Field(name string) Field {
	ks := v.s.Schema()
	switch {
	case name == ks.Partition.Name:
		return ObjectField(scalarAttr{v.r.Key.Partition})
	case ks.HasSort() && name == ks.Sort.Name:
		return ObjectField(scalarAttr{v.r.Key.Sort})
	}
	return Field{}
}

// serviceIdentity is the userIdentity of a deletion by TTL, with
// Lambda's keys (eventIdentity).
type serviceIdentity struct{}

func (serviceIdentity) Field(name string) Field {
	switch name {
	case "principalId":
		return StringField("dynamodb.amazonaws.com")
	case "type":
		return StringField("Service")
	}
	return Field{}
}

// imageView is a stored image: its attributes.
type imageView struct{ e storage.EncodedItem }

func (v imageView) Field(name string) Field {
	a, ok := v.e.Attr(name)
	if !ok {
		return Field{}
	}
	return ObjectField(encodedAttr{a})
}

// scalarAttr is a key attribute's value: {"S": ...}, {"N": ...} or {"B": ...}.
type scalarAttr struct{ v storage.Value }

func (a scalarAttr) Field(name string) Field {
	if name != a.v.Kind().String() {
		return Field{}
	}
	if a.v.Kind() == storage.KindB {
		return b64Field(a.v.Str())
	}
	return StringField(a.v.Str())
}

// encodedAttr is a stored attribute value: an object of one member named
// by its type.
type encodedAttr struct{ v storage.EncodedValue }

func (a encodedAttr) Field(name string) Field {
	k := a.v.Kind()
	if name != k.String() {
		return Field{}
	}
	switch k {
	case storage.KindS, storage.KindN:
		return StringField(a.v.Str())
	case storage.KindB:
		return b64Field(a.v.Str())
	case storage.KindBOOL:
		return BoolField(a.v.Bool())
	case storage.KindNULL:
		return BoolField(true)
	case storage.KindM:
		return ObjectField(mapAttr(a))
	}
	out := Field{Kind: FieldList, List: make([]Field, 0, a.v.Len())}
	parts := a.v.Parts()
	for {
		_, e, ok := parts.Next()
		if !ok {
			break
		}
		switch k {
		case storage.KindL:
			out.List = append(out.List, ObjectField(encodedAttr{e}))
		case storage.KindBS:
			out.List = append(out.List, b64Field(e.Str()))
		default: // SS, NS
			out.List = append(out.List, StringField(e.Str()))
		}
	}
	return out
}

// mapAttr is an M value's entries.
type mapAttr struct{ v storage.EncodedValue }

func (m mapAttr) Field(name string) Field {
	e, ok := m.v.Field(name)
	if !ok {
		return Field{}
	}
	return ObjectField(encodedAttr{e})
}
