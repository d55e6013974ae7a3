package wire

import "reflect"

// AttributeNames is a list of attribute names that only the request
// reads (the AttributesToGet of GetItem, Query and Scan, which their
// compiled projection holds until the answer is written): a name written
// without escapes is a view of the request body (decoder.stringView), not
// a copy. A copy was 8 bytes of a 4 MB GetItem's 381,295 names of 8
// (0.7 times the body). Its type is []string's, so a []string converts
// to it and back without a copy; do not keep its names past the request.
type AttributeNames []string

// decodeNameView is decodeString for an AttributeNames element: the same
// string, a view of the body where it has no escapes.
func decodeNameView(d *reqDecoder, v reflect.Value, depth int) error {
	if d.peek() != '"' {
		return decodeString(d, v, depth)
	}
	s, err := d.stringView()
	if err != nil {
		return err
	}
	v.SetString(s)
	return nil
}
