package emulator

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/storage"
)

// ExpressionValues is the ExpressionAttributeValues parameter: placeholder
// (":v") to value. Its decoder words value errors as DynamoDB does for this
// parameter: "ExpressionAttributeValues contains invalid value: <reason> for key :v".
type ExpressionValues map[string]AttributeValue

// UnmarshalJSON decodes and validates the placeholders' values.
func (x *ExpressionValues) UnmarshalJSON(data []byte) error {
	d := wireDecoder{data: data}
	if d.peek() == 'n' && d.consumeLiteral("null") {
		*x = nil
		return d.end()
	}
	if d.peek() != '{' {
		return d.mapTypeError()
	}
	d.pos++
	out := make(ExpressionValues)
	if d.peek() == '}' {
		d.pos++
	} else {
		for {
			name, err := d.readString()
			if err != nil {
				return d.syntax()
			}
			if err := d.expect(':'); err != nil {
				return err
			}
			if d.isNull() {
				d.validation("ExpressionAttributeValues contains invalid value: " + msgNullInList + " for key " + name)
			} else {
				had := d.verr != nil
				v, err := d.attrValue(1)
				if err != nil {
					if errors.Is(err, ErrValidation) && !had {
						err = errValidation("ExpressionAttributeValues contains invalid value: " + err.Error() + " for key " + name)
					}
					return err
				}
				if !had && d.verr != nil {
					d.verr = errValidation("ExpressionAttributeValues contains invalid value: " + d.verr.Error() + " for key " + name)
				}
				out[name] = AttributeValue{v}
			}
			switch d.peek() {
			case ',':
				d.pos++
				continue
			case '}':
				d.pos++
			default:
				return d.syntax()
			}
			break
		}
	}
	if err := d.finish(nil); err != nil {
		return err
	}
	*x = out
	return nil
}

// Values returns the placeholders' values as storage values (a new map).
func (x ExpressionValues) Values() map[string]storage.Value {
	if x == nil {
		return nil
	}
	m := make(map[string]storage.Value, len(x))
	for k, v := range x {
		m[k] = v.Value
	}
	return m
}
