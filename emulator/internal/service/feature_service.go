package service

import (
	"cmp"
	"log/slog"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
)

// What a feature that spans namespaces needs (global tables: a table
// and its replicas in other regions' namespaces of one access key): its
// per-service state, a word at the start of every request (its Starting
// hook, feature_lifecycle.go), the namespaces of other regions, and the
// core's ways to make, copy and delete tables there.

// ServiceState is a per-service state: a *T in every Service, made at
// its first use. Like State, it is a key.
type ServiceState[T any] struct {
	k  *key
	mk func(s *Service) *T
}

// NewServiceState declares a per-service state of type T, which mk makes
// for a service at the state's first use there (mk may run twice when
// two uses race: one value is kept, so mk must have no other effect).
// Call it once, for a package variable.
func NewServiceState[T any](mk func(s *Service) *T) ServiceState[T] {
	return ServiceState[T]{k: new(key), mk: mk}
}

// For returns the state of the service s.
func (st ServiceState[T]) For(s *Service) *T {
	if v, ok := s.states.load(st.k).(*T); ok {
		return v
	}
	return s.states.loadOrStore(st.k, st.mk(s)).(*T)
}

// Of returns the state of the request's service.
func (st ServiceState[T]) Of(c Call) *T { return st.For(c.c.svc) }

// In returns the state of the service of the namespace sp.
func (st ServiceState[T]) In(sp Space) *T { return st.For(sp.ns.svc) }

// Now reads the service's clock.
func (s *Service) Now() time.Time { return s.clock() }

// Log is the service's logger.
func (s *Service) Log() *slog.Logger { return s.log }

// TransientDelay is how long the states AWS keeps for a while (CREATING,
// UPDATING, ...) last (Config.TransientDelay).
func (s *Service) TransientDelay() time.Duration { return s.cfg.TransientDelay }

// Space returns the namespace of access key accessKey in region: the
// registered one, or an empty one that keeps nothing (a read creates no
// namespace).
func (s *Service) Space(accessKey, region string) Space {
	return Space{ns: s.lookup(catalog.Key{AccessKey: accessKey, Region: region}, false)}
}

// Shared reports whether the namespace is the one every request shares
// (Config.SharedDB), or a branch of it (no region of its own either).
func (s Space) Shared() bool { return s.ns.svc.cfg.SharedDB }

// Key returns the access key and region whose requests select the
// namespace; false for the shared one.
func (s Space) Key() (accessKey, region string, ok bool) {
	if s.Shared() {
		return "", "", false
	}
	return strings.Cut(s.ns.key, "/")
}

// Table returns the table called name of the namespace, or false.
func (s Space) Table(name string) (Table, bool) {
	t := s.ns.getTable(name)
	return Table{t: t}, t != nil
}

// TableNames are the names of the namespace's tables, in ascending
// order.
func (s Space) TableNames() []string { return s.ns.tableNames() }

// Region is the request's region (its credential's).
func (c Call) Region() string { return c.c.region }

// AccessKey is the request's access key id.
func (c Call) AccessKey() string { return c.c.accessKey }

// Caller is the key id that signed: AccessKey, or the key naming it as its namespace.
func (c Call) Caller() string { return cmp.Or(c.c.keyID, c.c.accessKey) }

// Input is a data-plane request's decoded input (*GetItemInput, a
// feature's own type, ...), for a stage that reads its parameters; nil
// for any other request. It is the request's: read it during the
// request only.
func (c Call) Input() any { return c.c.in }

// Account is the account id of the request's ARNs.
func (c Call) Account() string { return c.c.account }

// InRegion returns the call as if its request had come to region: in
// the namespace of the request's access key there (a read creates none;
// MakeTable registers it), for the feature's own work there, which is
// not this request's answer or table.
func (c Call) InRegion(region string) Call {
	inner := *c.c
	inner.ns = c.c.svc.lookup(catalog.Key{AccessKey: c.c.accessKey, Region: region}, false)
	inner.region = region
	inner.out, inner.tableName = nil, nil
	return Call{c: &inner}
}

// Describe is the table's TableDescription, as DescribeTable answers it.
func (t Table) Describe() *TableDescription { return t.t.describe() }

// DeleteTable deletes the table called name of the call's namespace as
// DeleteTable does (its checks, the features' refusals, its record).
func (c Call) DeleteTable(name string) error {
	_, err := deleteTable(c.c, &DeleteTableInput{TableName: &name})
	return err
}
