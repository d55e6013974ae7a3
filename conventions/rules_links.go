package conventions

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The rules that read a row against another: B17 (a user-tenant row under
// the common tenant names the caller's tenant), B18 (a data row has its
// command row) and D2 (a write keeps the entity of the item it replaces).

// userTenant is rule B17: seed 000's user-tenant association,
// USER_TENANT#<common tenant> / <tenantCode>#<userCode>, lives under the
// common tenant with the tenant in the sort key's first segment. A caller
// bound to a tenant (not a cross-tenant caller, nor one bound to a common
// tenant) writes or deletes only the rows of its own tenant there. Only
// the partition key prefix USER_TENANT is judged, in any case (a
// user_tenant#common row is still under the common tenant, which the
// tenant guard lets every tenant write; A17 reports the spelling, and a
// case must not be a way around this rule): other rows under the
// common tenant (USER#common / sso#<userId>, MASTER#common settings)
// carry no tenant in their sort key (B14 covers writing them at all).
func (c *checker) userTenant(common []string) {
	w := c.w
	if w.CallerTenant == "" || isCommon(common, w.CallerTenant) {
		return
	}
	prefix, _, _ := strings.Cut(w.Key.PK, KeySeparator)
	if !strings.EqualFold(prefix, userTenantPrefix) {
		return
	}
	tenant, err := tenantOf(w.Policy, w.Key.PK)
	if err != nil || !isCommon(common, tenant) {
		return
	}
	named, _, _ := strings.Cut(RemoveSortKeyVersion(w.Key.SK), KeySeparator)
	if !strings.EqualFold(named, w.CallerTenant) {
		c.add("B17", msgUserTenantOther, w.Op, w.CallerTenant, named, w.Key.SK, w.Key.PK)
	}
}

// isCommon reports whether tenant is one of the common tenants (any case).
func isCommon(common []string, tenant string) bool {
	return slices.ContainsFunc(common, func(c string) bool { return strings.EqualFold(c, tenant) })
}

// CommandTable is the name of the command table whose rows a data or
// history table's rows must have (rule B18): the table's name with its
// "data" (or "history") suffix replaced by "command" (the CLI template's
// <prefix><module>-data, -history and -command; master-data,
// master-history and master-command), or "" when the policy does not
// check B18 (neither a data nor a history table, the rule disabled, or a
// name without the suffix). The emulator reads that table, when the
// namespace has it, inside the row's write.
func (p Policy) CommandTable(table string) string {
	if !p.Active() || !p.enabled("B18") {
		return ""
	}
	suffix := ""
	switch {
	case p.Roles.Has(RoleData):
		suffix = "data"
	case p.Roles.Has(RoleHistory):
		suffix = "history"
	default:
		return ""
	}
	base, ok := strings.CutSuffix(table, suffix)
	if !ok {
		return ""
	}
	return base + "command"
}

// dataCommand is rule B18: a data row that a write creates, or moves to
// another version, has its command row. The async path's data row names
// it: csk is sk@version (A5), the command row DataSyncDdsHandler synced,
// which must be in the command table (Policy.CommandTable). A row whose
// csk is the bare sk is publishSync's and is not judged: 0.1.48-beta.0's
// publishSync writes the data row and no command row at all (1.2.5's
// writes the command row first). A row without csk names no command row
// and is a violation (DataService.publish always writes cpk and csk). A
// rewrite of the same version (a retried sync) is not judged: its
// command row may have expired through TTL since. Nothing is judged
// without Write.Command (no such table), nor when A5's shape fails.
//
// A master data table's TTL setting (TTL#<table>) is not judged: TtlService
// reads it from the data table alone, and the framework's own e2e suite
// seeds TTL settings straight into the master data table, with no
// command row (publish-async.e2e-spec.ts, publish-sync.e2e-spec.ts).
func (c *checker) dataCommand(version int) {
	w := c.w
	if w.Command == nil || version < 1 || strings.Contains(w.Key.SK, VerSeparator) || c.masterTTLSetting() {
		return
	}
	if ov, ok := w.Old["version"]; ok && ov.Kind() == storage.KindN && ov.Str() == strconv.Itoa(version) {
		return
	}
	sk := w.Key.SK + VerSeparator + strconv.Itoa(version)
	csk, ok := w.New["csk"]
	switch {
	case !ok:
		c.add("B18", msgDataNoCSK, version)
	case csk.Kind() != storage.KindS || csk.Str() != sk:
		// publishSync's bare sk, or a csk A5 reports
	case !w.Command(w.Key.PK, sk):
		c.add("B18", msgDataNoCommand, version, w.Policy.CommandTable(w.Table), w.Key.PK, sk)
	}
}

// historyCommand is rule B18 for a history row: HistoryService.publish
// copies the data row at version N to sk@N, and that data row is the
// sync of command row N, so a history row created at N has command row
// N in the module's command table (Policy.CommandTable): the command
// table is the log of every version, and no history row records a
// version it never held (@7 beside a log of @1 and @2). A row whose csk
// is the bare sk copies a publishSync data row and is not judged
// (0.1.48-beta.0's publishSync writes no command row). A rewrite of an
// existing version is not judged (its command row may have expired
// through TTL since), nor a master table's TTL setting.
func (c *checker) historyCommand() {
	w := c.w
	if w.Command == nil || w.Old != nil || w.Op != OpPut || c.masterTTLSetting() {
		return
	}
	_, n, err := ParseSortKey(w.Key.SK)
	if err != nil {
		return // A6, B3 and B4 report the sort key
	}
	if csk, ok := w.New["csk"]; ok && csk.Kind() == storage.KindS && csk.Str() == RemoveSortKeyVersion(w.Key.SK) {
		return // publishSync's
	}
	if !w.Command(w.Key.PK, w.Key.SK) {
		c.add("B18", msgHistoryNoCommand, n, w.Policy.CommandTable(w.Table), w.Key.PK, w.Key.SK)
	}
}

// designReplaces is rule D2: on a table with a declared design, a write
// over an existing item leaves an item of the same entity. Seed 001's
// Comment and Like have primary keys of one shape (PK={id},
// SK_GSI1PK={post_id}); only GSI1SK's prefix tells them apart, so a Like
// put with a Comment's primary key replaces the Comment. What it cannot
// tell: an item whose old or new self matches no entity (D1 reports the
// new one), two entities whose templates both match an item (the first
// declared is taken), and a replacement by an item of the same entity (a
// Like over another Like with the same id and post is an update).
func (c *checker) designReplaces() {
	w := c.w
	if w.Design == nil || w.Old == nil || w.New == nil || !w.Policy.Design {
		return
	}
	was, _ := w.Design(w.Old)
	is, _ := w.Design(w.New)
	if was != "" && is != "" && was != is {
		c.add("D2", msgDesignReplaces, w.Op, was, is, keyText(w), was)
	}
}

// keyText is the write's key as a refusal names it.
func keyText(w *Write) string {
	return strconv.Quote(w.Key.PK) + ", " + strconv.Quote(w.Key.SK)
}
