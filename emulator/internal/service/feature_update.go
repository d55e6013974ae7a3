package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// A feature's part in the core's own table operations: UpdateTable's
// members of its request the feature owns (UpdateTableMember), beside its
// hooks in DescribeTable's answer (Hooks.Describe) and in UpdateTable's
// and DeleteTable's refusals (Hooks.CheckUpdate, CheckDrop). The data
// plane never meets them.

// TableUpdate is what a feature does with a member of UpdateTable's
// request it owns (UpdateTableMember).
type TableUpdate[T any] struct {
	// Given reports whether the request has the member (an empty list,
	// say, is none).
	Given func(v *T) bool
	// Rules say how it combines with the rest of the request.
	Rules MemberRules
	// Run answers the request in once the core's checks of it passed:
	// the member (and those Rules.With names: OwnedMembers.Member) its only change.
	Run func(c Call, in *UpdateTableInput, v *T) (*TableDescription, error)
}

// ownedMember is a member of UpdateTable's request a feature owns.
type ownedMember struct {
	tablespec.OwnedMember
	make  func() any
	given func(v any) bool
	run   func(c Call, in *UpdateTableInput, v any) (*TableDescription, error)
}

// UpdateTableMember makes member name of UpdateTable's request the
// feature's: decoded into a T as a member of the request's own is (in
// its place: a value of the wrong JSON type is the request's
// SerializationException), and run by u once the request passed the
// core's checks. Call it from the feature's Register.
func UpdateTableMember[T any](r Registrar, name string, u TableUpdate[T]) {
	for _, m := range r.sm.members {
		if m.Name == name {
			panic("emulator: UpdateTable member owned twice: " + name)
		}
	}
	r.sm.members = append(r.sm.members, &ownedMember{
		OwnedMember: tablespec.OwnedMember{Name: name, MemberRules: u.Rules},
		make:        func() any { return new(T) },
		given:       func(v any) bool { return u.Given(v.(*T)) },
		run:         func(c Call, in *UpdateTableInput, v any) (*TableDescription, error) { return u.Run(c, in, v.(*T)) },
	})
}

// OwnedMembers are the members of UpdateTable's request that features
// own (UpdateTableMember), as the request decoder found them: it asks
// Member where each decodes (wire.MemberOwner). The service's adapter
// tells them whose they may be before the request is decoded (bind).
type OwnedMembers struct {
	members []*ownedMember // the service's features'
	vals    map[string]any
}

// bind has o take the members the features of sm own.
func (o *OwnedMembers) bind(sm *seams) { o.members = sm.members }

// Member returns where member name decodes, or nil when no feature owns
// it.
func (o *OwnedMembers) Member(name string) any {
	for _, m := range o.members {
		if m.Name != name {
			continue
		}
		if v, ok := o.vals[name]; ok {
			return v
		}
		v := m.make()
		if o.vals == nil {
			o.vals = map[string]any{}
		}
		o.vals[name] = v
		return v
	}
	return nil
}

// given returns the owned members the request has, in
// UpdateTableMember's order.
func (o *OwnedMembers) given() []*ownedMember {
	if len(o.vals) == 0 {
		return nil
	}
	var out []*ownedMember
	for _, m := range o.members {
		if v, ok := o.vals[m.Name]; ok && m.given(v) {
			out = append(out, m)
		}
	}
	return out
}
