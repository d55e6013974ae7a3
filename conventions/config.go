package conventions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Config says which tables follow the conventions: a list of table
// patterns, each with its Policy. A table takes the policy of the most
// specific entry that matches its name (Config.Policy). Build one with
// ParseConfig or as a literal, then call Validate.
type Config struct {
	Tables []TableConfig
	// CommonTenants are the tenants every caller may use (rule B10); empty
	// means [TenantCommon], the framework's COMMON_TENANT_CODES default.
	CommonTenants []string
	// Callers maps access key ids to the tenant of their caller (rule B10).
	// A caller not listed here may name its tenant with the x-tenant-code
	// header instead; a caller with neither is not restricted.
	Callers map[string]string
	// CrossTenant lists the access key ids of callers that may use any
	// tenant and Scan a guarded table, as the framework's CROSS_TENANT_ROLES.
	CrossTenant []string
}

// TableConfig gives the Policy of the tables whose name Match matches:
// either exactly, or as a path.Match glob when it contains *, ? or [
// ("*-command", "prod-app-*-data").
type TableConfig struct {
	Match string
	Policy
}

// Validate checks every pattern and policy. Two entries with the same
// Match are refused: the second could never apply.
func (c Config) Validate() error {
	seen := make(map[string]int, len(c.Tables))
	for i, tc := range c.Tables {
		if tc.Match == "" {
			return fmt.Errorf("%w: table %d: empty match", ErrConfig, i)
		}
		if _, err := path.Match(tc.Match, ""); err != nil {
			return fmt.Errorf("%w: table %d: match %q: %w", ErrConfig, i, tc.Match, err)
		}
		if j, ok := seen[tc.Match]; ok {
			return fmt.Errorf("%w: table %d: match %q repeats table %d, so it could never apply", ErrConfig, i, tc.Match, j)
		}
		seen[tc.Match] = i
		if err := tc.Validate(); err != nil {
			return fmt.Errorf("table %d (%q): %w", i, tc.Match, err)
		}
	}
	return nil
}

// Policy returns the policy of the named table from the most specific
// entry that matches it: an exact name first; else, of the globs that
// match, the one with the most literal characters ("prod-copy-*-command"
// over "*master-command" over "*-command", whatever their order); else
// false. Of two globs equally specific, the earlier entry wins.
func (c Config) Policy(table string) (Policy, bool) {
	i := c.entry(table)
	if i < 0 {
		return Policy{}, false
	}
	return c.Tables[i].Policy, true
}

// Match returns the entry whose policy the named table takes (Policy),
// as written in the configuration: its exact name or glob.
func (c Config) Match(table string) (string, bool) {
	i := c.entry(table)
	if i < 0 {
		return "", false
	}
	return c.Tables[i].Match, true
}

// Entries describes the configuration's entries, each with how many of
// tables (the names of the tables that exist) take its policy: an entry
// with 0 is a name or glob that matches no table (or that a more
// specific entry shadows).
func (c Config) Entries(tables []string) []ConfigEntry {
	out := make([]ConfigEntry, len(c.Tables))
	for i, tc := range c.Tables {
		out[i] = ConfigEntry{Match: tc.Match, Roles: tc.Roles.String(), Mode: tc.Mode.String()}
	}
	for _, name := range tables {
		if i := c.entry(name); i >= 0 {
			out[i].Tables++
		}
	}
	return out
}

// entry is the index of the entry whose policy table takes, or -1.
func (c Config) entry(table string) int {
	best, bestScore := -1, -1
	for i, tc := range c.Tables {
		if tc.Match == table {
			return i
		}
		if !isGlob(tc.Match) {
			continue
		}
		if ok, _ := path.Match(tc.Match, table); !ok {
			continue
		}
		if score := literalChars(tc.Match); score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// literalChars counts the characters of a glob that match only
// themselves: not *, ?, or a [...] class; an escaped character counts.
func literalChars(glob string) int {
	n := 0
	for i := 0; i < len(glob); i++ {
		switch glob[i] {
		case '*', '?':
		case '[':
			for i < len(glob) && glob[i] != ']' {
				if glob[i] == '\\' {
					i++
				}
				i++
			}
		case '\\':
			i++
			n++
		default:
			n++
		}
	}
	return n
}

// Lookup resolves a table's policy: its tags when they carry TagRoles (tags
// win, so a test can opt one table in or out), else the configuration.
// A malformed tag fails with ErrConfig.
func (c Config) Lookup(table string, tags map[string]string) (Policy, bool, error) {
	if p, ok, err := ParseTags(tags); ok || err != nil {
		return p, ok, err
	}
	p, ok := c.Policy(table)
	return p, ok, nil
}

func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// The table tags that opt a table in (DynamoDB tag keys and values allow
// letters, digits, spaces and _ . : / = + - @, so lists are separated by
// '+' or spaces).
const (
	// TagRoles is the roles, as ParseRoles reads them: "command",
	// "master+data". Its presence opts the table in.
	TagRoles = "dynamoemu:conventions"
	// TagMode is "enforce" (the default), "warn" or "off".
	TagMode = "dynamoemu:conventions-mode"
	// TagTenantSegment is Policy.TenantSegment in decimal.
	TagTenantSegment = "dynamoemu:conventions-tenant-segment"
	// TagDisable lists rules not checked: "B5+B6" or "B5 B6".
	TagDisable = "dynamoemu:conventions-disable"
	// TagStrict lists warn-severity rules made errors: "B5+B8".
	TagStrict = "dynamoemu:conventions-strict"
	// TagLatest is Policy.Latest, the key value of the latest item.
	TagLatest = "dynamoemu:conventions-latest"
	// TagLatestPointer is Policy.LatestPointer.
	TagLatestPointer = "dynamoemu:conventions-latest-pointer"
	// TagExempt lists Policy.Exempt, partition keys separated by '+' or
	// spaces: "test".
	TagExempt = "dynamoemu:conventions-exempt"
	// TagExemptIgnoreCase is Policy.ExemptIgnoreCase: "true" or "false".
	TagExemptIgnoreCase = "dynamoemu:conventions-exempt-ignore-case"
	// TagEnable lists opt-in rules checked (Policy.Enable): "B14".
	TagEnable = "dynamoemu:conventions-enable"
	// TagUpdatable lists Policy.Updatable: "status+taskToken+updatedAt".
	TagUpdatable = "dynamoemu:conventions-updatable"
	// TagMonth is Policy.MonthSegment and, optionally, Policy.MonthFormat:
	// "2" or "2 YYYYMM".
	TagMonth = "dynamoemu:conventions-month"
	// TagSequenceStart is the start of every counter of the table
	// (Policy.SequenceStart "*"): "1001".
	TagSequenceStart = "dynamoemu:conventions-sequence-start"
	// TagLatestWrite is Policy.LatestWrite: "either", "transaction" or
	// "conditional".
	TagLatestWrite = "dynamoemu:conventions-latest-write"
	// TagDesign is Policy.Design: "true" or "false".
	TagDesign = "dynamoemu:conventions-design"
)

// ParseTags reads a policy from table tags. It reports false when TagRoles
// is absent (the table has not opted in by tags), and ErrConfig for a
// malformed value.
func ParseTags(tags map[string]string) (Policy, bool, error) {
	roles, ok := tags[TagRoles]
	if !ok {
		return Policy{}, false, nil
	}
	var p Policy
	var err error
	if p.Roles, err = ParseRoles(roles); err != nil {
		return Policy{}, false, fmt.Errorf("tag %s: %w", TagRoles, err)
	}
	if p.Mode, err = ParseMode(tags[TagMode]); err != nil {
		return Policy{}, false, fmt.Errorf("tag %s: %w", TagMode, err)
	}
	if s := tags[TagTenantSegment]; s != "" {
		if p.TenantSegment, err = strconv.Atoi(s); err != nil {
			return Policy{}, false, fmt.Errorf("%w: tag %s: %q is not an integer", ErrConfig, TagTenantSegment, s)
		}
	}
	if d := strings.FieldsFunc(tags[TagDisable], isListSep); len(d) > 0 {
		p.Disabled = d
	}
	if d := strings.FieldsFunc(tags[TagStrict], isListSep); len(d) > 0 {
		p.Strict = d
	}
	if d := strings.FieldsFunc(tags[TagExempt], isListSep); len(d) > 0 {
		p.Exempt = d
	}
	if d := strings.FieldsFunc(tags[TagEnable], isListSep); len(d) > 0 {
		p.Enable = d
	}
	if v, ok := tags[TagUpdatable]; ok {
		p.Updatable = strings.FieldsFunc(v, isListSep)
		if p.Updatable == nil {
			p.Updatable = []string{}
		}
	}
	if p.ExemptIgnoreCase, err = tagBool(tags, TagExemptIgnoreCase); err != nil {
		return Policy{}, false, err
	}
	if p.Design, err = tagBool(tags, TagDesign); err != nil {
		return Policy{}, false, err
	}
	if f := strings.Fields(tags[TagMonth]); len(f) > 0 {
		if p.MonthSegment, err = strconv.Atoi(f[0]); err != nil || len(f) > 2 {
			return Policy{}, false, fmt.Errorf("%w: tag %s: %q is not \"<segment> [<format>]\"", ErrConfig, TagMonth, tags[TagMonth])
		}
		if len(f) == 2 {
			p.MonthFormat = f[1]
		}
	}
	if v := tags[TagSequenceStart]; v != "" {
		start, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return Policy{}, false, fmt.Errorf("%w: tag %s: %q is not an integer", ErrConfig, TagSequenceStart, v)
		}
		p.SequenceStart = map[string]int64{"*": start}
	}
	if p.LatestWrite, err = ParseLatestWay(tags[TagLatestWrite]); err != nil {
		return Policy{}, false, fmt.Errorf("tag %s: %w", TagLatestWrite, err)
	}
	p.Latest = tags[TagLatest]
	p.LatestPointer = tags[TagLatestPointer]
	if err := p.Validate(); err != nil {
		return Policy{}, false, err
	}
	return p, true, nil
}

// tagBool reads a "true"/"false" tag ("" or absent: false).
func tagBool(tags map[string]string, key string) (bool, error) {
	switch v := tags[key]; strings.ToLower(v) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, fmt.Errorf("%w: tag %s: %q is not true or false", ErrConfig, key, v)
	}
}

// configFile is the JSON form of Config.
type configFile struct {
	Tables []struct {
		Match         string   `json:"match"`
		Role          string   `json:"role"`
		Mode          string   `json:"mode"`
		TenantSegment int      `json:"tenantSegment"`
		Disable       []string `json:"disable"`
		Strict        []string `json:"strict"`
		Latest        string   `json:"latest"`
		LatestPointer string   `json:"latestPointer"`
		LatestWrite   string   `json:"latestWrite"`
		Exempt        []string `json:"exempt"`
		// ExemptIgnoreCase matches exempt without regard to case.
		ExemptIgnoreCase bool             `json:"exemptIgnoreCase"`
		Enable           []string         `json:"enable"`
		Updatable        []string         `json:"updatable"`
		MonthSegment     int              `json:"monthSegment"`
		MonthFormat      string           `json:"monthFormat"`
		SequenceStart    map[string]int64 `json:"sequenceStart"`
		Design           bool             `json:"design"`
	} `json:"tables"`
	CommonTenants []string          `json:"commonTenants"`
	Callers       map[string]string `json:"callers"`
	CrossTenant   []string          `json:"crossTenant"`
}

// ParseConfig reads a configuration file. The format is JSON:
//
//	{
//	  "tables": [
//	    {"match": "*-command", "role": "command"},
//	    {"match": "*-data", "role": "data", "mode": "warn"},
//	    {"match": "local-app-log-data", "role": "data", "tenantSegment": 1},
//	    {"match": "*sequences", "role": "sequences", "disable": ["A8"]},
//	    {"match": "strict-*-command", "role": "command", "strict": ["A11", "A12"]},
//	    {"match": "docs", "latest": "latest", "latestPointer": "actualVersion"},
//	    {"match": "local-*-command", "role": "command", "exempt": ["test"]},
//	    {"match": "*-order-command", "role": "command", "updatable": ["status", "taskToken", "updatedAt", "note"]},
//	    {"match": "*-log-data", "role": "data", "tenantSegment": 1, "monthSegment": 2, "monthFormat": "YYYY-MM"},
//	    {"match": "*-user-data", "role": "data", "enable": ["B14"]},
//	    {"match": "legacy-sequences", "role": "sequences", "sequenceStart": {"INVOICE#*": 1001}},
//	    {"match": "docs2", "latest": "latest", "latestWrite": "conditional"},
//	    {"match": "Blog", "design": true},
//	    {"match": "dev-*-command", "role": "command", "exempt": ["test"], "exemptIgnoreCase": true}
//	  ],
//	  "commonTenants": ["common"],
//	  "callers": {"AKIDTENANT001": "tenant001"},
//	  "crossTenant": ["AKIDADMIN"]
//	}
//
// "role" is what ParseRoles reads, "mode" what ParseMode reads; unknown
// fields are errors. The result is validated.
func ParseConfig(data []byte) (Config, error) {
	var f configFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Config{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if dec.More() {
		return Config{}, fmt.Errorf("%w: data after the configuration object", ErrConfig)
	}
	c := Config{CommonTenants: f.CommonTenants, Callers: f.Callers, CrossTenant: f.CrossTenant}
	for i, t := range f.Tables {
		roles, err := ParseRoles(t.Role)
		if err != nil {
			return Config{}, fmt.Errorf("table %d: %w", i, err)
		}
		mode, err := ParseMode(t.Mode)
		if err != nil {
			return Config{}, fmt.Errorf("table %d: %w", i, err)
		}
		way, err := ParseLatestWay(t.LatestWrite)
		if err != nil {
			return Config{}, fmt.Errorf("table %d: %w", i, err)
		}
		c.Tables = append(c.Tables, TableConfig{Match: t.Match, Policy: Policy{
			Roles: roles, Mode: mode, TenantSegment: t.TenantSegment,
			Disabled: t.Disable, Strict: t.Strict, Latest: t.Latest, LatestPointer: t.LatestPointer,
			LatestWrite: way, Exempt: t.Exempt, ExemptIgnoreCase: t.ExemptIgnoreCase, Enable: t.Enable,
			Updatable: t.Updatable, MonthSegment: t.MonthSegment, MonthFormat: t.MonthFormat,
			SequenceStart: t.SequenceStart, Design: t.Design,
		}})
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// CallerTenant returns the tenant of the caller with accessKey: its
// configured tenant, else header (the x-tenant-code header's value, ""
// when absent). cross reports a configured cross-tenant caller, who is
// never restricted.
func (c Config) CallerTenant(accessKey, header string) (tenant string, cross bool) {
	if slices.Contains(c.CrossTenant, accessKey) {
		return "", true
	}
	if t, ok := c.Callers[accessKey]; ok {
		return t, false
	}
	return header, false
}

func (c Config) commonTenants() []string {
	if len(c.CommonTenants) == 0 {
		return []string{TenantCommon}
	}
	return c.CommonTenants
}
