package convcheck

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/conventions"
)

// maxTenants bounds the tenants a layer keeps: past it, new ones are
// not learnt (rule B16 and the index guard then miss them, nothing
// else).
const maxTenants = 100_000

// tenants are the tenant codes a layer knows, in lower case: the
// configuration's common tenants and callers' tenants, each tenant a
// caller was bound to (x-tenant-code, callers), and the tenant of each
// partition key a write to a table that opts in stored. Rule B16 reads
// them to tell another tenant in an index key (CATEGORY#mbc#acme on an
// mbc row, once acme is known), the index guard to refuse an index
// partition that names two. They are learnt since the layer was made:
// a restarted server knows a tenant again once it is written or a
// caller is bound to it. The zero value is ready; it takes no lock of
// its own that another is taken under (sync.Map), so the write rules
// may ask it inside a write's storage transaction.
type tenants struct {
	m sync.Map // lower-case tenant -> struct{}
	n atomic.Int64
}

// add learns tenant.
func (ts *tenants) add(tenant string) {
	if tenant == "" {
		return
	}
	key := strings.ToLower(tenant)
	if _, ok := ts.m.Load(key); ok || ts.n.Load() >= maxTenants {
		return
	}
	if _, loaded := ts.m.LoadOrStore(key, struct{}{}); !loaded {
		ts.n.Add(1)
	}
}

// addKey learns the tenant of a write's partition key under its policy,
// when it has one (an exempt key or a delete teaches nothing).
func (ts *tenants) addKey(p conventions.Policy, w conventions.Write) {
	if w.New == nil || p.Roles == 0 {
		return
	}
	if tenant, err := p.TenantOf(w.Key.PK); err == nil {
		ts.add(tenant)
	}
}

// known reports whether tenant is known (any case).
func (ts *tenants) known(tenant string) bool {
	_, ok := ts.m.Load(strings.ToLower(tenant))
	return ok
}
