package service

import (
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// A feature's part in the core's own table operations: DescribeTable's
// answer (Describer), UpdateTable (a member of its request the feature
// owns: UpdateTableMember; a refusal of a change: UpdateChecker) and
// DeleteTable (a refusal: DropChecker). Each is looked up once, in Use;
// the data plane never meets them.

// Describer is a feature that describes its part of a table in every
// TableDescription (DescribeTable's, CreateTable's, UpdateTable's,
// DeleteTable's answers): it may add members (TableDescription.Add) and
// change the TableStatus shown.
type Describer interface {
	Describe(d Definition, now time.Time, out *TableDescription)
}

// DropChecker is a feature that may refuse a DeleteTable: CheckDrop runs
// once the request found its table t, before anything changes; its error
// is the answer.
type DropChecker interface {
	CheckDrop(c Call, t Table) error
}

// UpdateChecker is a feature that may refuse an UpdateTable: CheckUpdate
// runs once the request in found its table t, before anything changes;
// CheckUpdateLocked with the table's lock held, on the definition d the
// change starts from (not DELETING). Their errors are the answer.
type UpdateChecker interface {
	CheckUpdate(c Call, t Table, in *UpdateTableInput) error
	CheckUpdateLocked(c Call, d Definition, in *UpdateTableInput) error
}

var (
	describers     []Describer
	dropCheckers   []DropChecker
	updateCheckers []UpdateChecker
)

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

// updateMembers are the members of UpdateTable's request the features
// own, in UpdateTableMember's order. Filled by init functions only;
// read-only afterwards.
var updateMembers []*ownedMember

// UpdateTableMember makes member name of UpdateTable's request the
// feature's: decoded into a T as a member of the request's own is (in
// its place: a value of the wrong JSON type is the request's
// SerializationException), and run by u once the request passed the
// core's checks. Call it from the feature's Register.
func UpdateTableMember[T any](r Registrar, name string, u TableUpdate[T]) {
	for _, m := range updateMembers {
		if m.Name == name {
			panic("emulator: UpdateTable member owned twice: " + name)
		}
	}
	updateMembers = append(updateMembers, &ownedMember{
		OwnedMember: tablespec.OwnedMember{Name: name, MemberRules: u.Rules},
		make:        func() any { return new(T) },
		given:       func(v any) bool { return u.Given(v.(*T)) },
		run:         func(c Call, in *UpdateTableInput, v any) (*TableDescription, error) { return u.Run(c, in, v.(*T)) },
	})
}

// OwnedMembers are the members of UpdateTable's request that features
// own (UpdateTableMember), as the request decoder found them: it asks
// Member where each decodes (wire.MemberOwner).
type OwnedMembers struct {
	vals map[string]any
}

// Member returns where member name decodes, or nil when no feature owns
// it.
func (o *OwnedMembers) Member(name string) any {
	for _, m := range updateMembers {
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
	for _, m := range updateMembers {
		if v, ok := o.vals[m.Name]; ok && m.given(v) {
			out = append(out, m)
		}
	}
	return out
}

// ExtMembered is a feature whose part of a definition records of an
// earlier version kept as several members of their "ext" object rather
// than as one member named by the feature: ExtMembers names them, and
// the slot of such a record is the object of those members it has.
type ExtMembered interface {
	ExtMembers() []string
}

// extMembers are the "ext" members of each feature that has them
// (ExtMembered), by feature name.
var extMembers map[string][]string
