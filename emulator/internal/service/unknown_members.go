package service

import (
	"reflect"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// UnknownMember reports the first member of body, a request of operation
// op, that op's request does not take (wire.UnknownMember): its path and
// the members taken there. An operation not registered has none to
// report.
func (s *Service) UnknownMember(op string, body []byte) (path string, known []string, found bool) {
	h, ok := s.seams.ops[op]
	if !ok {
		return "", nil, false
	}
	in := reflect.New(h.in).Interface()
	if b, ok := in.(seamBound); ok {
		b.bind(&s.seams) // the members the features own
	}
	return wire.UnknownMemberOf(body, in)
}
