package conventions

import (
	"errors"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// versionedSK checks a command or history sort key "<base>@<N>" and its
// version attribute: missing suffix or mismatched attribute (rule, A3 or
// A6), '@' in the base (B1), a loose suffix (B3), a version below 1 (B4).
func (c *checker) versionedSK(role, rule string) {
	sk := c.w.Key.SK
	i := strings.LastIndex(sk, VerSeparator)
	if i < 0 {
		c.add(rule, msgNoVersion, role, sk)
		return
	}
	if base := sk[:i]; strings.Contains(base, VerSeparator) {
		c.add("B1", msgAtInBase, role, sk, base, RemoveSortKeyVersion(base))
	}
	suffix := sk[i+len(VerSeparator):]
	n, err := parseVersion(suffix)
	switch {
	case errors.Is(err, ErrVersionSyntax):
		c.add("B3", msgVersionSyntax, role, sk, suffix, jsNumberString(jsToNumber(suffix)))
		return
	case err != nil:
		c.add("B4", msgVersionRange, role, sk, suffix)
		return
	}
	v, ok := c.w.New["version"]
	switch {
	case !ok:
		c.add(rule, msgNoVersionAttr, role, n)
	case v.Kind() != storage.KindN:
		c.add(rule, msgVersionKind, role, v.Kind())
	case v.Str() != strconv.Itoa(n):
		c.add(rule, msgVersionDiffers, role, v.Str(), n)
	}
}

// commandWrite checks how a command row is written: a create carries the
// create guard (B6) and follows its previous version (B5); a PutItem over
// an existing version changes nothing but ttl and the updatable
// attributes (B6, as updateTtl does when it races the version's own
// status update); updates touch an existing row and change only the
// updatable attributes (B7).
func (c *checker) commandWrite() {
	w := c.w
	switch w.Op {
	case OpPut:
		if w.Old != nil {
			if name, ok := overwriteChanges(w.Old, w.New, w.Policy.updatable); ok {
				c.add("B6", msgOverwriteChanges, name, updatableList(w.Policy))
			}
			return
		}
		if !w.NotExistsCondition {
			c.add("B6", msgCreateUnguarded)
		}
		base, n, err := ParseSortKey(w.Key.SK)
		if err != nil || n < 2 || w.Exists == nil {
			return
		}
		prev := base + VerSeparator + strconv.Itoa(n-1)
		if !w.Exists(w.Key.PK, prev) {
			c.add("B5", msgVersionGap, n, n-1, prev)
		}
	case OpUpdate:
		if w.Old == nil {
			c.add("B7", msgUpdateCreates)
			return
		}
		for _, name := range changedAttrs(w.Old, w.New) {
			if !w.Policy.updatable(name) {
				c.add("B7", msgUpdateChanges, name, updatableList(w.Policy))
			}
		}
	}
}

// changedAttrs returns the attributes that differ between old and nu
// (added, removed or changed), in name order.
func changedAttrs(old, nu storage.Item) []string {
	var out []string
	for name, ov := range old {
		if nv, ok := nu[name]; !ok || !storage.Equal(ov, nv) {
			out = append(out, name)
		}
	}
	for name := range nu {
		if _, ok := old[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// updatableList names a policy's updatable attributes for a message.
func updatableList(p Policy) string {
	switch names := p.Updatable; {
	case names == nil:
		return strings.Join(DefaultUpdatable, ", ")
	case len(names) > 0:
		return strings.Join(names, ", ")
	}
	return "none"
}

// overwriteChanges returns the first attribute (in name order) that a
// PutItem over an existing version changes, other than those the
// framework's updateTtl may change: ttl, attributes when both the old and
// the new value are S3 references (the framework stores a large
// attributes map in S3 and writes a fresh reference on every put), and
// those also allowed reports true for. updateTtl reads the previous
// version and writes it back whole; that version's own execution updates
// its status (UpdateItem SET status, updatedAt) meanwhile, so the
// rewrite can carry the status, updatedAt (and taskToken) it read: a
// command table allows its updatable attributes there; a history table
// nothing more.
func overwriteChanges(old, nu storage.Item, allowed func(string) bool) (string, bool) {
	for _, name := range changedAttrs(old, nu) {
		if name == "ttl" || (name == "attributes" && isS3Ref(old[name]) && isS3Ref(nu[name])) {
			continue
		}
		if allowed != nil && allowed(name) {
			continue
		}
		return name, true
	}
	return "", false
}

// masterTTLSetting reports whether the write is a master data table's
// TTL setting (TTL#<table>), which TtlService reads from the data table
// alone and the framework's e2e suite seeds there directly.
func (c *checker) masterTTLSetting() bool {
	p := c.w.Policy
	return p.Roles.Has(RoleMaster) && p.Roles&(RoleData|RoleHistory) != 0 && strings.HasPrefix(c.w.Key.SK, ttlPrefix+KeySeparator)
}

// isS3Ref reports whether v is the framework's reference to attributes
// stored in S3 ("s3://bucket/key").
func isS3Ref(v storage.Value) bool {
	return v.Kind() == storage.KindS && strings.HasPrefix(v.Str(), "s3://")
}

// dataItem checks a data row (A5): no '@' in the sort key, a version of at
// least 1, cpk and csk pointing at the command row and, once written,
// kept (DataService.publish writes both on every version); and that its
// version stays or moves up by one (B8). A master data table's TTL
// setting without csk may have version 0: the framework's own e2e suite
// seeds its TTL settings straight into the master data table so
// (publish-async.e2e-spec.ts: {pk: 'MASTER#MBC', sk:
// 'TTL#<table>', version: 0, attributes: {days: 90}}), and TtlService
// reads only attributes.days.
//
// csk is accepted in two forms because the framework writes both: the
// async path (the data sync step) copies the command's versioned sort key,
// sk@version, while publishSync hands DataService.publish a command whose
// sk is still the unversioned input sort key (0.1.48-beta.0 never
// versions it; 1.2.5 versions it only after the data row is written), so
// its data row has csk == sk.
func (c *checker) dataItem() {
	w := c.w
	pk, sk := w.Key.PK, w.Key.SK
	if strings.Contains(sk, VerSeparator) {
		c.add("A5", msgDataAtInSK, sk, RemoveSortKeyVersion(sk))
	}
	version := 0
	switch v, ok := w.New["version"]; {
	case !ok:
		c.add("A5", msgDataNoVersion)
	case v.Kind() != storage.KindN:
		c.add("A5", msgDataVersionKind, v.Kind())
	default:
		_, hasCSK := w.New["csk"]
		if n, err := parseVersion(v.Str()); err == nil {
			version = n
		} else if !c.masterTTLSetting() || hasCSK || v.Str() != "0" {
			c.add("A5", msgDataVersionRange, v.Str())
		}
	}
	if v, ok := w.New["cpk"]; ok && (v.Kind() != storage.KindS || v.Str() != pk) {
		c.add("A5", msgDataCPK, describe(v), pk)
	}
	if v, ok := w.New["csk"]; ok && version > 0 {
		want := sk + VerSeparator + strconv.Itoa(version)
		if v.Kind() != storage.KindS || (v.Str() != want && v.Str() != sk) {
			c.add("A5", msgDataCSK, describe(v), want, sk)
		}
	}
	for _, name := range [...]string{"cpk", "csk"} {
		_, had := w.Old[name]
		if _, has := w.New[name]; had && !has {
			c.add("A5", msgDataDropsLink, w.Op, name)
		}
	}
	c.dataCommand(version)
	if w.Old == nil || version == 0 {
		return
	}
	ov := w.Old["version"]
	if ov.Kind() != storage.KindN {
		return
	}
	old, err := parseVersion(ov.Str())
	switch {
	case err != nil:
	case version < old:
		c.add("B8", msgDataVersionDown, old, version)
	case version > old+1:
		c.add("B8", msgDataVersionJump, old, version, old+1)
	}
}

// deleted checks a delete: command rows are never deleted (B12), nor
// history rows (B13). A delete of an item that is not there deletes
// nothing and is not checked. The 'latest' item's side (L1) is
// checkLatest's.
func (c *checker) deleted() {
	if c.w.Old == nil {
		return
	}
	if c.w.Policy.Roles.Has(RoleCommand) {
		c.add("B12", msgCommandDeleted, c.w.Op)
	}
	if c.w.Policy.Roles.Has(RoleHistory) {
		c.add("B13", msgHistoryDeleted, c.w.Op)
	}
}

// historyWrite checks that a history row is written once (B13): a
// PutItem over an existing version changes nothing but ttl (a retried
// publish rewrites the same row), never to expire it sooner or at once,
// and no UpdateItem edits one; and that a new row copies a stored
// command version (B18).
func (c *checker) historyWrite() {
	w := c.w
	switch {
	case w.Op == OpUpdate:
		c.add("B13", msgHistoryUpdated)
	case w.Old == nil:
		c.historyCommand()
	default:
		if name, ok := overwriteChanges(w.Old, w.New, nil); ok {
			c.add("B13", msgHistoryOverwritten, name)
		} else if earlier(w.Old["ttl"], w.New["ttl"]) {
			c.add("B13", msgHistoryExpiresEarlier, w.Old["ttl"].Str(), w.New["ttl"].Str())
		} else if past(w.Old["ttl"], w.New["ttl"], w.Now) {
			c.add("B13", msgHistoryExpiresPast, ttlText(w.Old["ttl"]), w.New["ttl"].Str(), w.Now.Unix())
		}
	}
}

// past reports whether a rewrite gives a row that had no ttl (none, or
// NULL) a ttl before now: a row that never expired made to expire at
// once. HistoryService.publish computes a ttl as now plus the TTL
// setting's days (calculateTtl: at least one day, or null), never one in
// the past. A zero now (unknown) judges nothing.
func past(old, nu storage.Value, now time.Time) bool {
	if old.Kind() == storage.KindN || nu.Kind() != storage.KindN || now.IsZero() {
		return false
	}
	ttl, ok := new(big.Int).SetString(string(nu.Number()), 10)
	return ok && ttl.Cmp(big.NewInt(now.Unix())) < 0
}

// ttlText renders a ttl that is not a Number for a message.
func ttlText(v storage.Value) string {
	if v.Kind() == storage.KindNULL {
		return "NULL"
	}
	return "none"
}

// earlier reports whether the ttl nu is a Number of epoch seconds before
// the Number old: a rewrite that makes a row expire sooner. A retried
// HistoryService.publish computes the ttl again from now, never sooner.
func earlier(old, nu storage.Value) bool {
	if old.Kind() != storage.KindN || nu.Kind() != storage.KindN {
		return false
	}
	return storage.CompareNumbers(nu.Number(), old.Number()) < 0
}

// describe renders a scalar value for a message: "S \"x\"", "N 3".
func describe(v storage.Value) string {
	switch v.Kind() {
	case storage.KindS:
		return strconv.Quote(v.Str())
	case storage.KindN:
		return v.Str()
	}
	return "of type " + v.Kind().String()
}
