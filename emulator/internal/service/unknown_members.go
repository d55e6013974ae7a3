package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/wire"

// UnknownMember reports the first member of body, a request of operation
// op, that op's request does not take (wire.UnknownMember): its path and
// the members taken there. An operation not registered has none to
// report.
func UnknownMember(op string, body []byte) (path string, known []string, found bool) {
	shape, ok := opShapes[op]
	if !ok {
		return "", nil, false
	}
	return wire.UnknownMember(body, shape.In)
}
