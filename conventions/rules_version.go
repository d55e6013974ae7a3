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
		for _, name := range []string{"version", "id"} {
			ov, oOK := w.Old[name]
			nv, nOK := w.New[name]
			if oOK != nOK || (oOK && !storage.Equal(ov, nv)) {
				c.add("B7", msgUpdateChanges, name)
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
		c.add("A5", msgDataAtInSK, sk, RemoveSortKeyVersion(sk))
	}
	version := ""
	switch v, ok := w.New["version"]; {
	case !ok:
		c.add("A5", msgDataNoVersion)
	case v.Kind() != storage.KindN:
		c.add("A5", msgDataVersionKind, v.Kind())
	default:
		if n, err := parseVersion(v.Str()); err != nil {
			c.add("A5", msgDataVersionRange, v.Str())
		} else {
			version = strconv.Itoa(n)
		}
	}
	if v, ok := w.New["cpk"]; ok && (v.Kind() != storage.KindS || v.Str() != pk) {
		c.add("A5", msgDataCPK, describe(v), pk)
	}
	if v, ok := w.New["csk"]; ok && version != "" {
		want := sk + VerSeparator + version
		if v.Kind() != storage.KindS || v.Str() != want {
			c.add("A5", msgDataCSK, describe(v), want)
		}
	}
	if w.Old == nil {
		return
	}
	ov, nv := w.Old["version"], w.New["version"]
	if ov.Kind() == storage.KindN && nv.Kind() == storage.KindN &&
		storage.CompareNumbers(nv.Number(), ov.Number()) < 0 {
		c.add("B8", msgDataVersionDown, ov.Str(), nv.Str())
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
