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
	// AtRead: each key a read names (GetItem, BatchGetItem,
	// TransactGetItems, a Query's sort key condition).
	AtRead
)

var checkpointNames = []string{"table", "write", "delete", "transaction", "request", "read"}

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
	// OptIn: the rule is checked only on tables that list it in
	// Policy.Enable.
	OptIn bool
}

// ruleTable lists every rule, in the study's numbering (§6 of
// shared/mbc-conventions.md) with the emulator's additions: A13 to A16
// from the key design guide, B12 to B14 inferred, D1 (seed 001's
// single-table design) and L1 (seed 002's 'latest' item).
// A4 (a create of an existing version fails) is not here: DynamoDB's own
// condition attribute_not_exists(pk) AND attribute_not_exists(sk) does it.
var ruleTable = []RuleInfo{
	{ID: "A1", Severity: SeverityError, Checkpoint: AtTable, Summary: "pk (S, HASH) and sk (S, RANGE)",
		Why: "every table of the framework's CLI template is keyed so; the rules read keys as strings"},
	{ID: "A2", Severity: SeverityError, Checkpoint: AtWrite, Summary: "pk is PREFIX#TENANT: prefix and tenant non-empty",
		Why: "the guide's key structure; getTenantCode returns undefined or '' otherwise, and the framework's tenant lookups (TTL, master data) go astray"},
	{ID: "A3", Severity: SeverityError, Checkpoint: AtWrite, Summary: "command sk is <base>@<N>, version attribute == N",
		Why: "publishAsync writes addSortKeyVersion(sk, version) and version together; getItem and getLatestItem probe exactly that key"},
	{ID: "A5", Severity: SeverityError, Checkpoint: AtWrite, Summary: "data sk has no '@', version >= 1, cpk == pk, csk == sk@version or sk; a write keeps cpk and csk",
		Why: "DataService.publish writes the unversioned sk, and cpk and csk on every version; csk is sk@version on the async path and the bare sk on publishSync (both framework versions); a master TTL setting without csk may have version 0, as the framework's e2e suite seeds them"},
	{ID: "A6", Severity: SeverityError, Checkpoint: AtWrite, Summary: "history sk is <base>@<N>, version == N",
		Why: "HistoryService.publish writes addSortKeyVersion(sk, version)"},
	{ID: "A7", Severity: SeverityError, Checkpoint: AtWrite, Summary: "id == generateId(pk, sk) on command, data, history and tasks rows",
		Why: "the framework copies id and merges read-your-writes results on it; a wrong id is a different entity"},
	{ID: "A8", Severity: SeverityError, Checkpoint: AtWrite, Summary: "sequences: pk SEQ#<tenant>; seq a whole Number of at least 1, set by UpdateItem, from 1 (or a declared start) up by one (or back to 1)",
		Why: "SequencesService increments with if_not_exists(seq, 0) + 1 in one UpdateItem; a PutItem or a jump issues a number twice or skips some; a table that continues legacy numbering declares where its counters start"},
	{ID: "A9", Severity: SeverityError, Checkpoint: AtWrite, Summary: "master rows: pk MASTER#<tenant>; TTL#<table> settings have attributes.days >= 0",
		Why: "the framework reads master data and TTL settings under masterPk(tenant), MASTER#<tenant>, and no other partition key; a negative days makes calculateTtl throw on every publish of the tenant"},
	{ID: "A10", Severity: SeverityError, Checkpoint: AtWrite, Summary: "ttl is NULL or whole epoch seconds",
		Why: "TTL expires only Numbers of epoch seconds; a string or milliseconds never expires"},
	{ID: "A11", Severity: SeverityWarn, Checkpoint: AtTable, Summary: "a command table streams NEW_IMAGE (or NEW_AND_OLD_IMAGES)",
		Why: "a table may get its stream by a later UpdateTable; the template creates command tables with NEW_IMAGE, so it never fires on the framework's own tables"},
	{ID: "A12", Severity: SeverityWarn, Checkpoint: AtWrite, Summary: "the tenant segment is lower case, without spaces around it (the tenant package's TENANT#<code> excepted)",
		Why: "the guide asks for it, but masterPk and seqPk do not lower-case and the framework's own e2e writes MASTER#MBC; a tenant code with a trailing space is another tenant to every lookup"},
	{ID: "A13", Severity: SeverityError, Checkpoint: AtWrite, Summary: "time series: the declared month segment of pk has the declared format (YYYY-MM) and follows the tenant; sk is <timestamp>#<eventId> in that month",
		Why: "the guide's LOG#<tenant>#<YYYY-MM> buckets a tenant's events by month; a full date, YYYYMM or no month puts them in partitions no month's query reads; checked only where a table declares its month segment"},
	{ID: "A14", Severity: SeverityWarn, Checkpoint: AtRead, Summary: "reads of a data table name the sort key without @version",
		Why: "the guide's anti-pattern: data rows carry no version, so the read finds nothing; a read changes nothing, so it is reported, not refused (strict refuses it)"},
	{ID: "A15", Severity: SeverityWarn, Checkpoint: AtWrite, Summary: "sort key segments are joined by '#' alone: no empty segment, no other separator (colon, pipe, slash, backslash, semicolon, comma, space) inside one; ISO timestamps excepted",
		Why: "the guide's anti-pattern of mixed separators; the framework cuts keys only at '#' and '@', so such a key works but its parts cannot be queried by begins_with: style, hence a warning"},
	{ID: "A16", Severity: SeverityWarn, Checkpoint: AtWrite, Summary: "master sk is TYPE#category#code (upper-case TYPE; SETTING, DATA, COPY) or the master package's <setting>#<code>",
		Why: "the guide's master data pattern; the master package writes two segments (MASTER_SETTING#<code>, <setting>#<code>, TTL#<table>) and cannot parse more, so only a key neither accepts is reported: style, hence a warning"},
	{ID: "A17", Severity: SeverityWarn, Checkpoint: AtWrite, Summary: "keys spell the framework's markers exactly: an upper-case pk prefix, TTL#<table>, the declared latest marker",
		Why: "keys compare case-sensitively: order#t1 is not ORDER#t1 to a Query, TtlService reads TTL#<table> and never ttl#<table>, and a reader of latest never finds Latest; style the framework does not check, hence a warning"},
	{ID: "B1", Severity: SeverityError, Checkpoint: AtWrite, Summary: "no '@' in a base sort key",
		Why: "removeSortKeyVersion cuts at the last '@': user@example.com becomes user"},
	{ID: "B2", Severity: SeverityError, Checkpoint: AtWrite, Summary: "the tenant is the last pk segment unless the table declares its segment",
		Why: "getTenantCode reads the last segment: LOG#t1#2024-01 would be tenant 2024-01"},
	{ID: "B3", Severity: SeverityError, Checkpoint: AtWrite, Summary: "the version suffix is a canonical decimal",
		Why: "addSortKeyVersion writes canonical digits, so a row @007 or @1.5 is unreachable by the framework's probes"},
	{ID: "B4", Severity: SeverityError, Checkpoint: AtWrite, Summary: "no stored version <= 0 (no @-1)",
		Why: "-1 means latest and 0 means new; getSortKeyVersion cannot tell @-1 from no version"},
	{ID: "B5", Severity: SeverityError, Checkpoint: AtWrite, Summary: "command sk@N is created only when sk@(N-1) exists",
		Why: "every framework path writes N+1 after reading N; TTL removes N-1 only after N exists, so a gap is never legitimate"},
	{ID: "B6", Severity: SeverityError, Checkpoint: AtWrite, Summary: "command rows are written once: a create carries the create guard; a PutItem over a version changes only ttl and the updatable attributes",
		Why: "publishAsync, publishSync and duplicate always send the guard; updateTtl writes a version back whole with a new ttl, racing its status update (status, taskToken, updatedAt); the stream warm-up row goes through Policy.Exempt"},
	{ID: "B7", Severity: SeverityError, Checkpoint: AtWrite, Summary: "UpdateItem of a command row targets an existing row and changes only the updatable attributes (default status, taskToken, updatedAt)",
		Why: "the framework updates only status, taskToken and updatedAt of existing versions (updateStatus, updateTaskToken); anything else rewrites a version the log already holds; a table lists its own updatable attributes"},
	{ID: "B8", Severity: SeverityError, Checkpoint: AtWrite, Summary: "a data row's version stays or moves up by one",
		Why: "the data row follows its command versions one by one (check_version waits for the previous one); a retried sync rewrites the same version"},
	{ID: "B9", Severity: SeverityError, Checkpoint: AtWrite, Summary: "tenantCode == the pk's tenant",
		Why: "the framework and its packages always write both from the same tenant; never seen to differ on its flows"},
	{ID: "B10", Severity: SeverityError, Checkpoint: AtRequest, Summary: "a tenant-bound caller uses only its tenant and the common ones (an index partition: one that names its tenant alone)",
		Why: "opt-in: it checks only callers the configuration or an x-tenant-code header binds to a tenant"},
	{ID: "B11", Severity: SeverityError, Checkpoint: AtWrite, Summary: "tasks: TASK#<tenant> or SFN_TASK#<tenant> / <type>#<code>[#<i>]; session: <user>#<tenant> / <module>#<itemId> with version and ttl",
		Why: "TaskService and SessionService write exactly these shapes; the stream warm-up row goes through Policy.Exempt"},
	{ID: "B12", Severity: SeverityError, Checkpoint: AtDelete, Summary: "command rows are never deleted",
		Why: "the command table is the log of every version; the framework never deletes from it (TTL expiry is not a client delete)"},
	{ID: "B13", Severity: SeverityError, Checkpoint: AtWrite | AtDelete, Summary: "history rows are written once: no PutItem over a version (but its ttl, never earlier nor into the past), no UpdateItem, no delete",
		Why: "HistoryService.publish puts each version once and nothing in the framework changes or deletes it: the history is the record of what each version was (TTL expiry is not a client delete)"},
	{ID: "B14", Severity: SeverityError, Checkpoint: AtWrite | AtDelete, Summary: "a tenant-bound caller does not write a common tenant's items (opt-in: enable B14)",
		Why: "the guide keeps shared data under the common tenant; the framework's RolesGuard lets any caller use it, so the rule is off unless a table enables it, for projects whose shared data only cross-tenant callers write", OptIn: true},
	{ID: "B15", Severity: SeverityError, Checkpoint: AtTransaction, Summary: "one transaction writes one tenant's items (and the common tenants')",
		Why: "the framework publishes one tenant's entity per request, an order and its items under one pk; a transaction across two tenants splits one entity between them, and the LeadingKeys policy that isolates tenants on AWS refuses it for either tenant's caller; cross-tenant callers may"},
	{ID: "B16", Severity: SeverityError, Checkpoint: AtWrite, Summary: "a global secondary index's partition key names the item's tenant (or a common one) as a # segment, and no other tenant known",
		Why: "a Query of an index reads one partition key value; with the tenant in it (STATUS#tenant001#PENDING) a tenant's Query stays in its tenant, and dynamodb:LeadingKeys can isolate it on AWS; without it (PENDING, STATUS#tenant002), or with another tenant beside it (CATEGORY#mbc#acme), one partition holds or hands out several tenants' items"},
	{ID: "B17", Severity: SeverityError, Checkpoint: AtWrite | AtDelete, Summary: "a tenant-bound caller writes or deletes a user-tenant row under a common tenant (USER_TENANT#common / <tenantCode>#<userCode>, any case) only for its own tenant",
		Why: "seed 000 keeps each user's tenants under the common tenant, the tenant in the sort key; the framework's RolesGuard lets every tenant use the common tenant, so nothing else stops a tenant attaching a user to another tenant (or detaching one); cross-tenant callers may"},
	{ID: "B18", Severity: SeverityError, Checkpoint: AtWrite, Summary: "a data row created or moved to version N by the async path (csk sk@N), and a history row created at N, have command row sk@N in the module's command table; a data row has a csk",
		Why: "the async path's data row is DataSyncDdsHandler's sync of a stored command row, and a history row copies a data row; one without it is a version the log never held, which history, TTL and the next version's check_version cannot find; publishSync's rows (csk the bare sk) and master TTL settings are not judged, since 0.1.48-beta.0's publishSync writes no command row and the framework's e2e suite seeds TTL settings straight into master-data"},
	{ID: "D1", Severity: SeverityError, Checkpoint: AtWrite, Summary: "with a declared design, an item's key attributes match one entity's templates",
		Why: "seed 001: each model's keys carry its own prefix so that no access pattern mixes models; an item no template matches is one no pattern reads, or one another pattern returns; checked only on tables that declare a design"},
	{ID: "D2", Severity: SeverityError, Checkpoint: AtWrite, Summary: "with a declared design, a write does not turn an item of one entity into another's (a Like put with a Comment's primary key)",
		Why: "seed 001: a Comment and a Like have keys of one shape (their id, then their post's), the model only in GSI1SK's prefix, so a put of one under the other's key replaces it silently; checked only on tables that declare a design"},
	{ID: "L1", Severity: SeverityError, Checkpoint: AtWrite | AtDelete | AtTransaction, Summary: "the 'latest' item copies a new version, written with it in one transaction or by a write whose condition (or PartiQL WHERE clause) fails when 'latest' moved; versions it points at are not rewritten; neither is deleted alone",
		Why: "seed 002: the latest item holds the same data as the newest version and is kept in step by a transaction or a conditional write; a rewritten or deleted version leaves it wrong"},
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
