package conventions

import (
	"errors"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/storage"
)

// versionedSK checks a command or history sort key "<base>@<N>" and its
// version attribute: missing suffix or mismatched attribute (rule, A3 or
// A6), '@' in the base (B1), a loose suffix (B3), a version below 1 (B4).
// It returns the version, or 0 when the key has none.
func (c *checker) versionedSK(role, rule string) int {
	sk := c.w.Key.SK
	i := strings.LastIndex(sk, VerSeparator)
	if i < 0 {
		c.add(rule, "%s sort key %q has no @version suffix", role, sk)
		return 0
	}
	if base := sk[:i]; strings.Contains(base, VerSeparator) {
		c.add("B1", "%s sort key %q has '@' in its base %q: removeSortKeyVersion would cut it to %q",
			role, sk, base, RemoveSortKeyVersion(base))
	}
	suffix := sk[i+len(VerSeparator):]
	n, err := parseVersion(suffix)
	switch {
	case errors.Is(err, ErrVersionSyntax):
		c.add("B3", "%s sort key %q has version suffix %q, not a canonical decimal (getSortKeyVersion reads %s)",
			role, sk, suffix, jsNumberString(jsToNumber(suffix)))
		return 0
	case err != nil:
		c.add("B4", "%s sort key %q has version %s; stored versions start at 1 (-1 means latest)", role, sk, suffix)
		return 0
	}
	v, ok := c.w.New["version"]
	switch {
	case !ok:
		c.add(rule, "%s item has no version attribute; want %d as in its sort key", role, n)
	case v.Kind() != storage.KindN:
		c.add(rule, "%s item version is %s, not a Number", role, v.Kind())
	case v.Str() != strconv.Itoa(n):
		c.add(rule, "%s item version %s differs from its sort key's version %d", role, v.Str(), n)
	}
	return n
}

// commandWrite checks how a command row is written: creates carry the
// create guard (B6) and follow their previous version (B5); updates touch an
// existing row and leave version and id alone (B7).
func (c *checker) commandWrite() {
	w := c.w
	switch w.Op {
	case OpPut:
		if w.Old != nil {
			return // an overwrite, as updateTtl does
		}
		if !w.NotExistsCondition {
			c.add("B6", "PutItem creates command row without the condition "+
				"attribute_not_exists(pk) AND attribute_not_exists(sk)")
		}
		base, n, err := ParseSortKey(w.Key.SK)
		if err != nil || n < 2 || w.Exists == nil {
			return
		}
		prev := base + VerSeparator + strconv.Itoa(n-1)
		if !w.Exists(w.Key.PK, prev) {
			c.add("B5", "command version %d written while version %d (sort key %q) does not exist", n, n-1, prev)
		}
	case OpUpdate:
		if w.Old == nil {
			c.add("B7", "UpdateItem creates a command row; the framework only updates existing versions")
			return
		}
		for _, name := range []string{"version", "id"} {
			ov, oOK := w.Old[name]
			nv, nOK := w.New[name]
			if oOK != nOK || (oOK && !storage.Equal(ov, nv)) {
				c.add("B7", "UpdateItem changes the command row's %s", name)
			}
		}
	}
}

// dataItem checks a data row (A5): no '@' in the sort key, a version of at
// least 1, cpk and csk pointing at the command row; and that its version
// does not go down (B8).
func (c *checker) dataItem() {
	w := c.w
	pk, sk := w.Key.PK, w.Key.SK
	if strings.Contains(sk, VerSeparator) {
		c.add("A5", "data sort key %q contains '@': data rows carry no version (removeSortKeyVersion gives %q)",
			sk, RemoveSortKeyVersion(sk))
	}
	version := ""
	switch v, ok := w.New["version"]; {
	case !ok:
		c.add("A5", "data item has no version attribute")
	case v.Kind() != storage.KindN:
		c.add("A5", "data item version is %s, not a Number", v.Kind())
	default:
		if n, err := parseVersion(v.Str()); err != nil {
			c.add("A5", "data item version %s is not a whole number of at least 1", v.Str())
		} else {
			version = strconv.Itoa(n)
		}
	}
	if v, ok := w.New["cpk"]; ok && (v.Kind() != storage.KindS || v.Str() != pk) {
		c.add("A5", "data item cpk %s is not its partition key %q", describe(v), pk)
	}
	if v, ok := w.New["csk"]; ok && version != "" {
		want := sk + VerSeparator + version
		if v.Kind() != storage.KindS || v.Str() != want {
			c.add("A5", "data item csk %s is not %q (sort key @ version)", describe(v), want)
		}
	}
	if w.Old == nil {
		return
	}
	ov, nv := w.Old["version"], w.New["version"]
	if ov.Kind() == storage.KindN && nv.Kind() == storage.KindN &&
		storage.CompareNumbers(nv.Number(), ov.Number()) < 0 {
		c.add("B8", "data item version goes down from %s to %s", ov.Str(), nv.Str())
	}
}

// sequence checks a sequences row (A8): SEQ#<tenant>, seq a Number that
// only UpdateItem changes and that never goes down.
func (c *checker) sequence() {
	w := c.w
	if seg, _, _ := strings.Cut(w.Key.PK, KeySeparator); seg != seqPrefix {
		c.add("A8", "sequences partition key %q is not SEQ#<tenant>", w.Key.PK)
	}
	c.plainSK()
	v, ok := w.New["seq"]
	if !ok {
		return
	}
	if v.Kind() != storage.KindN {
		c.add("A8", "seq is %s, not a Number", v.Kind())
		return
	}
	if w.Op == OpPut {
		c.add("A8", "PutItem writes seq; counters change only by UpdateItem SET seq = if_not_exists(seq, :zero) + :n")
		return
	}
	if ov, ok := w.Old["seq"]; ok && ov.Kind() == storage.KindN &&
		storage.CompareNumbers(v.Number(), ov.Number()) < 0 {
		c.add("A8", "seq goes down from %s to %s", ov.Str(), v.Str())
	}
}

// master checks a master data row (A9): MASTER#<tenant>, and for a TTL
// setting (sort key TTL#<table>) attributes.days a Number of at least 0.
func (c *checker) master() {
	w := c.w
	if seg, _, _ := strings.Cut(w.Key.PK, KeySeparator); seg != masterPrefix {
		c.add("A9", "master partition key %q is not MASTER#<tenant>", w.Key.PK)
	}
	base := RemoveSortKeyVersion(w.Key.SK)
	table, ok := strings.CutPrefix(base, ttlPrefix+KeySeparator)
	if !ok {
		return
	}
	if table == "" {
		c.add("A9", "TTL setting sort key %q names no table", w.Key.SK)
	}
	attrs, ok := w.New["attributes"]
	if !ok {
		return
	}
	if attrs.Kind() != storage.KindM {
		c.add("A9", "TTL setting attributes is %s, not a Map", attrs.Kind())
		return
	}
	days, ok := attrs.Map()["days"]
	switch {
	case !ok || days.Kind() == storage.KindNULL:
	case days.Kind() != storage.KindN:
		c.add("A9", "TTL setting attributes.days is %s, not a Number", days.Kind())
	case days.Number().Sign() < 0:
		c.add("A9", "TTL setting attributes.days %s is negative: every publish for the tenant would fail", days.Str())
	}
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
