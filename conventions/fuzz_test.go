package conventions

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// FuzzKeyHelpers checks the key parsing helpers against each other: the
// framework's loose helpers and the checked ones agree wherever the checked
// ones accept a key, and none of them panics.
func FuzzKeyHelpers(f *testing.F) {
	for _, sk := range []string{"X", "X@3", "a@b@3", "a@b", "X@", "X@abc", "a@3@b", "X@-1", "X@1.5",
		"X@0x10", "X@1e3", "X@007", "X@ 3 ", "X@Infinity", "user@example.com", "@3", "ORDER#1@12"} {
		f.Add(sk, "A#t", 3)
	}
	for _, pk := range []string{"LOG#t#2024-01", "A", "", "A#", "#t", "MASTER#single"} {
		f.Add("X@1", pk, 1)
	}
	f.Fuzz(func(t *testing.T, sk, pk string, v int) {
		base := RemoveSortKeyVersion(sk)
		if !strings.HasPrefix(sk, base) || (!strings.Contains(sk, VerSeparator) && base != sk) {
			t.Fatalf("RemoveSortKeyVersion(%q) = %q", sk, base)
		}
		if got := GenerateID(pk, sk); got != pk+KeySeparator+base {
			t.Fatalf("GenerateID(%q, %q) = %q", pk, sk, got)
		}
		added := AddSortKeyVersion(sk, float64(v))
		if RemoveSortKeyVersion(added) != base {
			t.Fatalf("AddSortKeyVersion(%q, %d) = %q changed the base %q", sk, v, added, base)
		}
		if math.Abs(float64(v)) < 1<<53 && SortKeyVersion(added) != float64(v) {
			t.Fatalf("SortKeyVersion(AddSortKeyVersion(%q, %d)) = %v", sk, v, SortKeyVersion(added))
		}
		_ = SortKeyVersion(sk)

		if b, n, err := ParseSortKey(sk); err == nil {
			if b != base || n < 1 {
				t.Fatalf("ParseSortKey(%q) = %q, %d; RemoveSortKeyVersion gives %q", sk, b, n, base)
			}
			if again, err := VersionedSortKey(b, n); err != nil || again != sk {
				t.Fatalf("VersionedSortKey(%q, %d) = %q, %v, want %q", b, n, again, err, sk)
			}
			if n < 1<<53 && SortKeyVersion(sk) != float64(n) {
				t.Fatalf("SortKeyVersion(%q) = %v, ParseSortKey %d", sk, SortKeyVersion(sk), n)
			}
		}
		if b, err := BaseSortKey(sk); err == nil {
			if b != base {
				t.Fatalf("BaseSortKey(%q) = %q, RemoveSortKeyVersion %q", sk, b, base)
			}
			if id, err := NewID(pk, sk); err != nil || id != GenerateID(pk, sk) {
				t.Fatalf("NewID(%q, %q) = %q, %v", pk, sk, id, err)
			}
		}
		if vs, err := VersionedSortKey(sk, v); err == nil {
			if b, n, err := ParseSortKey(vs); err != nil || b != sk || n != v {
				t.Fatalf("ParseSortKey(VersionedSortKey(%q, %d)) = %q, %d, %v", sk, v, b, n, err)
			}
		}

		last, ok := TenantCode(pk)
		if ok != strings.Contains(pk, KeySeparator) {
			t.Fatalf("TenantCode(%q) ok = %v", pk, ok)
		}
		if tenant, err := ParseTenant(pk); err == nil {
			if tenant != last || tenant == "" {
				t.Fatalf("ParseTenant(%q) = %q, TenantCode %q", pk, tenant, last)
			}
			if at, err := TenantAt(pk, strings.Count(pk, KeySeparator)); err != nil || at != tenant {
				t.Fatalf("TenantAt(%q, last) = %q, %v, want %q", pk, at, err, tenant)
			}
		}
		if seg, err := TenantAt(pk, v%8); err == nil {
			if seg == "" || strings.Contains(seg, KeySeparator) || !strings.Contains(pk, seg) {
				t.Fatalf("TenantAt(%q, %d) = %q", pk, v%8, seg)
			}
		}
	})
}

// FuzzJSToNumber checks unary plus on version suffixes: it never panics,
// formats back without panicking, and reads canonical decimals as
// strconv does.
func FuzzJSToNumber(f *testing.F) {
	for _, s := range []string{"", " 3 ", "007", "1.5", "0x10", "0b101", "0o17", "1e3", "-Infinity", "abc", "1_0", ".5", "5.", "\u00a01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := jsToNumber(s)
		_ = jsNumberString(got)
		if _, err := parseVersion(s); err == nil {
			want, _ := strconv.ParseFloat(s, 64)
			if got != want {
				t.Fatalf("+%q = %v, want %v", s, got, want)
			}
		}
		if f, err := strconv.ParseFloat(jsNumberString(got), 64); err == nil && !math.IsNaN(got) && f != got {
			t.Fatalf("String(+%q) = %q does not read back as %v", s, jsNumberString(got), got)
		}
	})
}

// FuzzIsNotExistsCondition checks the create-guard recogniser never panics
// and accepts only expressions that name pk or sk in attribute_not_exists.
func FuzzIsNotExistsCondition(f *testing.F) {
	for _, s := range []string{
		"attribute_not_exists(pk) AND attribute_not_exists(sk)", "(attribute_not_exists(#pk))",
		"attribute_not_exists(pk) OR attribute_not_exists(sk)", "((((", "attribute_not_exists(",
	} {
		f.Add(s)
	}
	names := map[string]string{"#pk": "pk", "#sk": "sk"}
	f.Fuzz(func(t *testing.T, expr string) {
		if IsNotExistsCondition(expr, names) && !strings.Contains(expr, "attribute_not_exists") {
			t.Fatalf("accepted %q", expr)
		}
	})
}

// FuzzParseConfig checks that the configuration parser never panics and
// that whatever it accepts is valid.
func FuzzParseConfig(f *testing.F) {
	f.Add(sampleConfig)
	f.Add(`{"tables": [{"match": "x[", "role": "data"}]}`)
	f.Add(`{"tables": [{"match": "*", "role": "master+command", "disable": ["A3"]}]}`)
	f.Add(`{"tables": [], "callers": {"AKID1": "t1"}, "crossTenant": ["AKID2"]}`)
	f.Add(`{"tables": [{"match": "a-[xy]\\*-*", "role": "command", "exempt": ["test"]}, {"match": "a-x*-c", "role": "data"}]}`)
	f.Add(`{"tables": [{"match": "*-log-data", "role": "data", "tenantSegment": 1, "monthSegment": 2, "monthFormat": "YYYYMM", "updatable": [], "enable": ["B14"], "sequenceStart": {"INV*": 5}, "latest": "latest", "latestWrite": "conditional", "design": true, "exemptIgnoreCase": true}]}`)
	f.Fuzz(func(t *testing.T, data string) {
		c, err := ParseConfig([]byte(data))
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("ParseConfig accepted an invalid config: %v", err)
		}
		for _, tc := range c.Tables {
			p, ok := c.Policy(tc.Match)
			if !ok {
				t.Fatalf("Policy(%q): the entry's own match finds nothing", tc.Match)
			}
			if !isGlob(tc.Match) && !reflect.DeepEqual(p, tc.Policy) {
				t.Fatalf("Policy(%q): got %+v, want the exact entry's %+v", tc.Match, p, tc.Policy)
			}
		}
		for key := range c.Callers {
			c.CallerTenant(key, "")
		}
	})
}

// FuzzPinsLatest: the latest item's condition reader never panics, and a
// condition that pins the pointer still pins it in parentheses or ANDed
// with another term (an OR never pins).
func FuzzPinsLatest(f *testing.F) {
	for _, s := range []string{
		"actualVersion = :v", "#p = :v", ":v = actualVersion", "((#p = :v))", "attribute_not_exists(pk)",
		"a BETWEEN :x AND :y AND actualVersion = :v", "actualVersion = :v OR x = :y", "NOT actualVersion = :v",
		"(", ")", "((((", "AND AND", "BETWEEN", "actualVersion <> :v", "attribute_not_exists(",
	} {
		f.Add(s)
	}
	names := map[string]string{"#p": "actualVersion", "#k": "pk"}
	keys := Key{PK: "pk", SK: "sk"}
	f.Fuzz(func(t *testing.T, expr string) {
		if !pinsLatest(expr, names, "actualVersion", keys) {
			return
		}
		for _, wrapped := range []string{"(" + expr + ")", "attribute_exists(content) AND (" + expr + ")"} {
			if !pinsLatest(wrapped, names, "actualVersion", keys) {
				t.Fatalf("%q pins the latest item, %q does not", expr, wrapped)
			}
		}
		if pinsLatest("("+expr+") OR attribute_exists(content)", names, "actualVersion", keys) {
			t.Fatalf("an OR of %q pins the latest item", expr)
		}
	})
}

// FuzzParseTags: the table tags, the new ones included, parse to a valid
// policy or to ErrConfig, never a panic.
func FuzzParseTags(f *testing.F) {
	f.Add("command", "2 YYYYMM", "1001", "either", "true", "status+taskToken", "B14")
	f.Add("data", "2", "x", "sideways", "maybe", "", "A3")
	f.Add("", "2 YYYY/MM", "-5", "transaction", "false", "+", "")
	f.Fuzz(func(t *testing.T, roles, month, start, way, design, updatable, enable string) {
		tags := map[string]string{TagRoles: roles, TagTenantSegment: "1", TagMonth: month, TagSequenceStart: start,
			TagLatestWrite: way, TagDesign: design, TagUpdatable: updatable, TagEnable: enable}
		p, ok, err := ParseTags(tags)
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("ParseTags: %v does not wrap ErrConfig", err)
			}
			return
		}
		if !ok {
			t.Fatal("ParseTags: TagRoles given, not opted in")
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParseTags returned an invalid policy: %v", err)
		}
	})
}

// FuzzVersionOrder: versionOrder is antisymmetric and never panics; a
// name compares equal to itself.
func FuzzVersionOrder(f *testing.F) {
	for _, s := range [][2]string{{"v1", "v2"}, {"v10", "v2"}, {"2026-11-01", "2026-12-01"}, {"01HX7M", "01HX8N"}, {"", "0"}, {"a00", "a0"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, okAB := versionOrder(a, b)
		ba, okBA := versionOrder(b, a)
		if okAB != okBA || ab != -ba {
			t.Fatalf("versionOrder(%q, %q) = %d, %v but (%q, %q) = %d, %v", a, b, ab, okAB, b, a, ba, okBA)
		}
		if o, ok := versionOrder(a, a); !ok || o != 0 {
			t.Fatalf("versionOrder(%q, itself) = %d, %v", a, o, ok)
		}
	})
}
