package conventions

import (
	"slices"
	"strings"
)

// Checkpoint says when the emulator checks a rule. A rule may have
// several (L1 is checked on writes and on deletes).
type Checkpoint uint8

// The checkpoints.
const (
	// AtTable: CreateTable, UpdateTable and TagResource (the table's
	// schema and settings).
	AtTable Checkpoint = 1 << iota
	// AtWrite: each item a request puts or updates (PutItem, UpdateItem,
	// BatchWriteItem, TransactWriteItems, PartiQL), before it is stored.
	AtWrite
	// AtDelete: each item a request deletes.
	AtDelete
	// AtTransaction: the writes of one request together (a write outside
	// a transaction is a transaction of one).
	AtTransaction
	// AtRequest: every key a request names, reads included.
	AtRequest
)

var checkpointNames = []string{"table", "write", "delete", "transaction", "request"}

// String joins the checkpoints' names with '+': "write+delete".
func (c Checkpoint) String() string {
	var names []string
	for i, name := range checkpointNames {
		if c&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, "+")
}

// RuleInfo describes one rule: the rule table below is the one place that
// says which rules exist, their default severity, when they are checked
// and why the default is what it is. Policy validation, severities,
// doc.go and docs/conventions.md all follow it (a test keeps the two documents in
// step).
type RuleInfo struct {
	ID         string
	Severity   Severity // the default; Policy.Strict makes a warning an error
	Checkpoint Checkpoint
	Summary    string // one line: what the rule asks
	Why        string // why the default severity is what it is
}

// ruleTable lists every rule, in the study's numbering (§6 of
// shared/mbc-conventions.md) with the emulator's additions (B12, B13, L1).
// A4 (a create of an existing version fails) is not here: DynamoDB's own
// condition attribute_not_exists(pk) AND attribute_not_exists(sk) does it.
var ruleTable = []RuleInfo{
	{"A1", SeverityError, AtTable, "pk (S, HASH) and sk (S, RANGE)",
		"every table of the framework's CLI template is keyed so; the rules read keys as strings"},
	{"A2", SeverityError, AtWrite, "pk is PREFIX#TENANT: prefix and tenant non-empty",
		"the guide's key structure; getTenantCode returns undefined or '' otherwise, and the framework's tenant lookups (TTL, master data) go astray"},
	{"A3", SeverityError, AtWrite, "command sk is <base>@<N>, version attribute == N",
		"publishAsync writes addSortKeyVersion(sk, version) and version together; getItem and getLatestItem probe exactly that key"},
	{"A5", SeverityError, AtWrite, "data sk has no '@', version >= 1, cpk == pk, csk == sk@version or sk",
		"DataService.publish writes the unversioned sk; csk is sk@version on the async path and the bare sk on publishSync (both framework versions)"},
	{"A6", SeverityError, AtWrite, "history sk is <base>@<N>, version == N",
		"HistoryService.publish writes addSortKeyVersion(sk, version)"},
	{"A7", SeverityError, AtWrite, "id == generateId(pk, sk) on command, data, history and tasks rows",
		"the framework copies id and merges read-your-writes results on it; a wrong id is a different entity"},
	{"A8", SeverityError, AtWrite, "sequences: pk SEQ#<tenant>; seq a Number set by UpdateItem, up by one (or back to 1)",
		"SequencesService increments with if_not_exists(seq, 0) + 1 in one UpdateItem; a PutItem or a jump issues a number twice or skips some"},
	{"A9", SeverityError, AtWrite, "master rows: pk MASTER#<tenant>; TTL#<table> settings have attributes.days >= 0",
		"a negative days makes calculateTtl throw on every publish of the tenant"},
	{"A10", SeverityError, AtWrite, "ttl is NULL or whole epoch seconds",
		"TTL expires only Numbers of epoch seconds; a string or milliseconds never expires"},
	{"A11", SeverityWarn, AtTable, "a command table streams NEW_IMAGE (or NEW_AND_OLD_IMAGES)",
		"a table may get its stream by a later UpdateTable; the template creates command tables with NEW_IMAGE, so it never fires on the framework's own tables"},
	{"A12", SeverityWarn, AtWrite, "the tenant segment is lower case",
		"the guide asks for it, but masterPk and seqPk do not lower-case and the framework's own e2e writes MASTER#MBC"},
	{"B1", SeverityError, AtWrite, "no '@' in a base sort key",
		"removeSortKeyVersion cuts at the last '@': user@example.com becomes user"},
	{"B2", SeverityError, AtWrite, "the tenant is the last pk segment unless the table declares its segment",
		"getTenantCode reads the last segment: LOG#t1#2024-01 would be tenant 2024-01"},
	{"B3", SeverityError, AtWrite, "the version suffix is a canonical decimal",
		"addSortKeyVersion writes canonical digits, so a row @007 or @1.5 is unreachable by the framework's probes"},
	{"B4", SeverityError, AtWrite, "no stored version <= 0 (no @-1)",
		"-1 means latest and 0 means new; getSortKeyVersion cannot tell @-1 from no version"},
	{"B5", SeverityError, AtWrite, "command sk@N is created only when sk@(N-1) exists",
		"every framework path writes N+1 after reading N; TTL removes N-1 only after N exists, so a gap is never legitimate"},
	{"B6", SeverityError, AtWrite, "command rows are written once: a create carries the create guard; a PutItem over a version changes only ttl",
		"publishAsync, publishSync and duplicate always send the guard; updateTtl's overwrite changes ttl alone; the stream warm-up row goes through Policy.Exempt"},
	{"B7", SeverityError, AtWrite, "UpdateItem of a command row targets an existing row and keeps version and id",
		"the framework updates only status, taskToken and updatedAt of existing versions"},
	{"B8", SeverityError, AtWrite, "a data row's version stays or moves up by one",
		"the data row follows its command versions one by one (check_version waits for the previous one); a retried sync rewrites the same version"},
	{"B9", SeverityError, AtWrite, "tenantCode == the pk's tenant",
		"the framework and its packages always write both from the same tenant; never seen to differ on its flows"},
	{"B10", SeverityError, AtRequest, "a tenant-bound caller uses only its tenant and the common ones",
		"opt-in: it checks only callers the configuration or an x-tenant-code header binds to a tenant"},
	{"B11", SeverityError, AtWrite, "tasks: TASK#<tenant> or SFN_TASK#<tenant> / <type>#<code>[#<i>]; session: <user>#<tenant> / <module>#<itemId> with version and ttl",
		"TaskService and SessionService write exactly these shapes; the stream warm-up row goes through Policy.Exempt"},
	{"B12", SeverityError, AtDelete, "command rows are never deleted",
		"the command table is the log of every version; the framework never deletes from it (TTL expiry is not a client delete)"},
	{"B13", SeverityError, AtWrite | AtDelete, "history rows are written once: no PutItem over a version (but its ttl), no UpdateItem, no delete",
		"HistoryService.publish puts each version once and nothing in the framework changes or deletes it: the history is the record of what each version was (TTL expiry is not a client delete)"},
	{"L1", SeverityError, AtWrite | AtDelete | AtTransaction, "the 'latest' item is written with its item in one transaction, never points at a deleted item, and is not deleted while that item stays",
		"seed 002: the latest item is a copy kept in step by TransactWriteItems; an item it points at must stay"},
}

// RuleTable returns every rule, in order.
func RuleTable() []RuleInfo { return slices.Clone(ruleTable) }

// LookupRule returns the rule with the given id.
func LookupRule(id string) (RuleInfo, bool) {
	i := slices.IndexFunc(ruleTable, func(r RuleInfo) bool { return r.ID == id })
	if i < 0 {
		return RuleInfo{}, false
	}
	return ruleTable[i], true
}

// severityOf is a rule's default severity (error for an unknown id).
func severityOf(rule string) Severity {
	r, _ := LookupRule(rule)
	return r.Severity
}
