package conventions

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Roles says which of the framework's tables a table is, and so which rules
// apply to it. A table has one base role (command, data, history,
// sequences, tasks, session or keys), optionally with RoleMaster added for the master module's tables
// ("master+command" is <prefix>master-command). RoleMaster alone is a
// master data table checked for key shape only.
type Roles uint8

// The roles.
const (
	// RoleCommand: <prefix><module>-command, every version of every item,
	// sort keys <base>@<version>.
	RoleCommand Roles = 1 << iota
	// RoleData: <prefix><module>-data, the latest version, sort keys without
	// a version.
	RoleData
	// RoleHistory: <prefix><module>-history, past versions, <base>@<version>.
	RoleHistory
	// RoleSequences: <prefix>sequences, counters under SEQ#<tenant>.
	RoleSequences
	// RoleMaster: master data, MASTER#<tenant>, including TTL settings.
	RoleMaster
	// RoleKeys: any other table that follows the key design guide
	// (PREFIX#TENANT partition keys, no '@' in sort keys) without versions.
	RoleKeys
	// RoleTasks: <prefix>tasks, the task package's rows TASK#<tenant> (or
	// SFN_TASK#<tenant>) / <taskType>#<code>[#<index>] (rule B11).
	RoleTasks
	// RoleSession: <prefix>session, the read-your-writes rows
	// <userId>#<tenant> / <module>#<itemId> (rule B11).
	RoleSession
)

const baseRoles = RoleCommand | RoleData | RoleHistory | RoleSequences | RoleKeys | RoleTasks | RoleSession

type namedRole struct {
	r    Roles
	name string
}

var roleNames = []namedRole{
	{RoleMaster, "master"}, {RoleCommand, "command"}, {RoleData, "data"},
	{RoleHistory, "history"}, {RoleSequences, "sequences"}, {RoleKeys, "keys"},
	{RoleTasks, "tasks"}, {RoleSession, "session"},
}

// Has reports whether rs includes r.
func (rs Roles) Has(r Roles) bool { return rs&r != 0 }

// String returns the roles joined by '+', as ParseRoles reads them.
func (rs Roles) String() string {
	var names []string
	for _, rn := range roleNames {
		if rs.Has(rn.r) {
			names = append(names, rn.name)
		}
	}
	return strings.Join(names, "+")
}

// ParseRoles reads role names separated by '+', ',' or spaces (a DynamoDB
// tag value allows '+' and spaces, not ','): "command", "master+data". At most
// one base role is allowed; the empty string is no role.
func ParseRoles(s string) (Roles, error) {
	var rs Roles
	for _, name := range strings.FieldsFunc(s, isListSep) {
		i := slices.IndexFunc(roleNames, func(rn namedRole) bool { return strings.EqualFold(rn.name, name) })
		if i < 0 {
			return 0, fmt.Errorf("%w: unknown role %q", ErrConfig, name)
		}
		rs |= roleNames[i].r
	}
	if err := rs.validate(); err != nil {
		return 0, err
	}
	return rs, nil
}

func (rs Roles) validate() error {
	if rs&^(baseRoles|RoleMaster) != 0 {
		return fmt.Errorf("%w: unknown role bits %#x", ErrConfig, uint8(rs))
	}
	if b := rs & baseRoles; b&(b-1) != 0 {
		return fmt.Errorf("%w: roles %q: at most one of command, data, history, sequences, keys, tasks, session", ErrConfig, rs)
	}
	if rs.Has(RoleMaster) && rs&(RoleSequences|RoleTasks|RoleSession) != 0 {
		return fmt.Errorf("%w: roles %q: master combines only with command, data, history or keys", ErrConfig, rs)
	}
	return nil
}

func isListSep(r rune) bool { return r == '+' || r == ',' || r == ' ' }

// Mode says what the emulator does with a table's violations.
type Mode uint8

// The modes. The zero Mode is ModeEnforce: a table that opts in without
// saying how is enforced.
const (
	// ModeEnforce rejects a write that has an error-severity violation and
	// reports the others.
	ModeEnforce Mode = iota
	// ModeWarn writes and reports every violation.
	ModeWarn
	// ModeOff checks nothing.
	ModeOff
)

var modeNames = [...]string{ModeEnforce: "enforce", ModeWarn: "warn", ModeOff: "off"}

// String returns "enforce", "warn" or "off".
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// ParseMode reads "enforce", "warn" or "off" (any case); "" is ModeEnforce.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeEnforce, nil
	}
	for m, name := range modeNames {
		if strings.EqualFold(s, name) {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown mode %q", ErrConfig, s)
}

// Policy is the conventions one table follows: resolved once (from the
// configuration file or the table's tags, see Config.Lookup) and carried
// by each Write.
type Policy struct {
	// Roles selects the rules; zero means none of the framework's rules
	// (a table may still keep a latest item, see Latest).
	Roles Roles
	// Mode is what the emulator does with violations.
	Mode Mode
	// TenantSegment is the index of the tenant in the partition key split on
	// '#'. Zero means the framework's layout: PREFIX#TENANT, the tenant last
	// (rule B2 reports a partition key with more segments, whose last
	// segment getTenantCode would take for the tenant). A positive index
	// declares another layout, such as 1 for LOG#<tenant>#<yyyy-mm>.
	TenantSegment int
	// Disabled lists rules not checked on this table ("B6").
	Disabled []string
	// Strict lists warn-severity rules whose violations are errors on this
	// table ("A11", "A12"), so that ModeEnforce rejects them.
	Strict []string
	// Latest, when set, is the key value of this table's latest item (the
	// 'latest' pattern): rule L1 then checks that each new item and the
	// latest item are written together in one transaction.
	Latest string
	// LatestPointer is the latest item's attribute naming the key of the
	// item it copies; empty means "actualVersion".
	LatestPointer string
	// Exempt lists partition key values whose items no rule checks, for
	// rows that tooling writes on purpose outside the conventions: the
	// framework's stream warm-up script (trigger_ddb_stream.sh) puts
	// {"pk":"test","sk":"<epoch>"} into every command table and the tasks
	// table, so a configuration for local development exempts "test".
	// Values match exactly, case included ("test" does not exempt
	// "TEST"), unless ExemptIgnoreCase.
	Exempt []string
	// ExemptIgnoreCase makes Exempt match without regard to case.
	ExemptIgnoreCase bool
	// Enable lists the opt-in rules (RuleInfo.OptIn: B14) checked on
	// this table.
	Enable []string
	// Updatable lists the attributes an UpdateItem may change on a command
	// row (rule B7); nil means DefaultUpdatable, the framework's.
	Updatable []string
	// MonthSegment declares a time-series partition key (rule A13): the
	// index, split on '#', of its month segment, after the tenant's
	// (LOG#<tenant>#<YYYY-MM>: 2, with TenantSegment 1). Zero: none.
	MonthSegment int
	// MonthFormat is the month segment's layout, of YYYY, MM and DD and
	// '-' ("YYYY-MM", the guide's, when empty).
	MonthFormat string
	// SequenceStart declares where the counters of a sequences table start
	// (rule A8), for a table that continues legacy numbering: a counter
	// whose sort key matches a pattern (path.Match; "*" for all) may be
	// created with that value, by UpdateItem or PutItem, besides 1.
	SequenceStart map[string]int64
	// LatestWrite is how the latest item is kept in step (rule L1):
	// LatestEither (the default, seed 002 allows both), LatestTransaction
	// or LatestConditional.
	LatestWrite LatestWay
	// Design: the table follows the declared single-table design (the
	// emulator's design file, rule D1).
	Design bool
}

// LatestWay is how a table keeps its latest item in step with its
// versions (seed 002: "条件付き書き込みやトランザクション").
type LatestWay uint8

// The ways.
const (
	// LatestEither: a transaction or a conditional write.
	LatestEither LatestWay = iota
	// LatestTransaction: the new version and the latest item in one
	// TransactWriteItems.
	LatestTransaction
	// LatestConditional: the latest item written with a condition that
	// fails when it moved (<pointer> = :seen, or attribute_not_exists for
	// the first).
	LatestConditional
)

var latestWayNames = [...]string{LatestEither: "either", LatestTransaction: "transaction", LatestConditional: "conditional"}

// String returns "either", "transaction" or "conditional".
func (w LatestWay) String() string {
	if int(w) < len(latestWayNames) {
		return latestWayNames[w]
	}
	return fmt.Sprintf("LatestWay(%d)", w)
}

// ParseLatestWay reads "either", "transaction" or "conditional" (any
// case); "" is LatestEither.
func ParseLatestWay(s string) (LatestWay, error) {
	if s == "" {
		return LatestEither, nil
	}
	for w, name := range latestWayNames {
		if strings.EqualFold(s, name) {
			return LatestWay(w), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown latest write %q (want either, transaction or conditional)", ErrConfig, s)
}

// DefaultUpdatable are the attributes the framework's UpdateItem changes
// on a command row: updateStatus sets status (and DynamoDbService.updateItem
// updatedAt), updateTaskToken sets taskToken.
var DefaultUpdatable = []string{"status", "taskToken", "updatedAt"}

// Validate checks the roles, mode, tenant segment and rule names.
func (p Policy) Validate() error {
	if err := p.Roles.validate(); err != nil {
		return err
	}
	if int(p.Mode) >= len(modeNames) {
		return fmt.Errorf("%w: mode %d", ErrConfig, p.Mode)
	}
	if p.TenantSegment < 0 {
		return fmt.Errorf("%w: tenant segment %d is negative", ErrConfig, p.TenantSegment)
	}
	for _, r := range slices.Concat(p.Disabled, p.Strict) {
		if _, ok := LookupRule(r); !ok {
			return fmt.Errorf("%w: unknown rule %q", ErrConfig, r)
		}
	}
	for _, pk := range p.Exempt {
		if pk == "" {
			return fmt.Errorf("%w: empty exempt partition key", ErrConfig)
		}
	}
	for _, r := range p.Enable {
		if info, ok := LookupRule(r); !ok || !info.OptIn {
			return fmt.Errorf("%w: enable %q: not an opt-in rule (those are %s)", ErrConfig, r, strings.Join(optInRules(), ", "))
		}
	}
	for _, a := range p.Updatable {
		if a == "" {
			return fmt.Errorf("%w: empty updatable attribute name", ErrConfig)
		}
	}
	if err := p.validateMonth(); err != nil {
		return err
	}
	for pat, start := range p.SequenceStart {
		if _, err := path.Match(pat, ""); err != nil || pat == "" {
			return fmt.Errorf("%w: sequence start pattern %q is not a pattern", ErrConfig, pat)
		}
		if start < 1 {
			return fmt.Errorf("%w: sequence start %d for %q: counters start at 1 or more", ErrConfig, start, pat)
		}
	}
	if int(p.LatestWrite) >= len(latestWayNames) {
		return fmt.Errorf("%w: latest write %d", ErrConfig, p.LatestWrite)
	}
	return nil
}

// validateMonth checks the time-series declaration: a month segment after
// the tenant's, which must be declared too (the tenant is not last), and
// a layout of YYYY, MM, DD and '-'.
func (p Policy) validateMonth() error {
	if p.MonthSegment == 0 {
		if p.MonthFormat != "" {
			return fmt.Errorf("%w: month format %q without a month segment", ErrConfig, p.MonthFormat)
		}
		return nil
	}
	switch {
	case p.MonthSegment < 0:
		return fmt.Errorf("%w: month segment %d is negative", ErrConfig, p.MonthSegment)
	case p.TenantSegment == 0:
		return fmt.Errorf("%w: month segment %d needs the tenant segment declared (the guide's LOG#<tenant>#<YYYY-MM>: tenant 1, month 2)", ErrConfig, p.MonthSegment)
	case p.MonthSegment <= p.TenantSegment:
		return fmt.Errorf("%w: month segment %d is not after the tenant segment %d: the guide's time series is LOG#<tenant>#<YYYY-MM>", ErrConfig, p.MonthSegment, p.TenantSegment)
	}
	if _, err := monthLayout(p.MonthFormat); err != nil {
		return err
	}
	return nil
}

// optInRules are the ids of the opt-in rules.
func optInRules() []string {
	var ids []string
	for _, r := range ruleTable {
		if r.OptIn {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// exempt reports whether the items of partition key pk are exempt.
func (p Policy) exempt(pk string) bool {
	if len(p.Exempt) == 0 {
		return false
	}
	if !p.ExemptIgnoreCase {
		return slices.Contains(p.Exempt, pk)
	}
	return slices.ContainsFunc(p.Exempt, func(e string) bool { return strings.EqualFold(e, pk) })
}

// updatable reports whether an UpdateItem may change attribute name of a
// command row.
func (p Policy) updatable(name string) bool {
	if p.Updatable == nil {
		return slices.Contains(DefaultUpdatable, name)
	}
	return slices.Contains(p.Updatable, name)
}

// sequenceStart returns the declared start of the counter with sort key
// sk: the pattern with the most literal characters that matches it.
func (p Policy) sequenceStart(sk string) (int64, bool) {
	best, start := -1, int64(0)
	for pat, v := range p.SequenceStart {
		if ok, _ := path.Match(pat, sk); ok {
			if n := literalChars(pat); n > best || (n == best && v < start) {
				best, start = n, v
			}
		}
	}
	return start, best >= 0
}

// Active reports whether the policy checks anything.
func (p Policy) Active() bool {
	return p.Mode != ModeOff && (p.Roles != 0 || p.Latest != "" || p.Design)
}

func (p Policy) enabled(rule string) bool {
	if slices.Contains(p.Disabled, rule) {
		return false
	}
	if r, ok := LookupRule(rule); ok && r.OptIn {
		return slices.Contains(p.Enable, rule)
	}
	return true
}

// Enabled reports whether the policy checks rule (it does not disable it).
func (p Policy) Enabled(rule string) bool { return p.enabled(rule) }

// Severity is rule's severity on this table: its default (RuleTable), or
// an error when Strict lists it.
func (p Policy) Severity(rule string) Severity { return p.severity(rule) }

// severity is rule's severity on this table: an error when Strict lists it.
func (p Policy) severity(rule string) Severity {
	if slices.Contains(p.Strict, rule) {
		return SeverityError
	}
	return severityOf(rule)
}

func (p Policy) latestPointer() string {
	if p.LatestPointer == "" {
		return "actualVersion"
	}
	return p.LatestPointer
}
