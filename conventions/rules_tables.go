package conventions

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/storage"
)

// sequence checks a sequences row (A8): SEQ#<tenant>, seq a Number that
// only UpdateItem changes and that never goes down.
func (c *checker) sequence() {
	w := c.w
	if seg, _, _ := strings.Cut(w.Key.PK, KeySeparator); seg != seqPrefix {
		c.add("A8", msgSeqPK, w.Key.PK)
	}
	c.plainSK()
	v, ok := w.New["seq"]
	if !ok {
		return
	}
	if v.Kind() != storage.KindN {
		c.add("A8", msgSeqKind, v.Kind())
		return
	}
	if w.Op == OpPut {
		c.add("A8", msgSeqPut)
		return
	}
	if ov, ok := w.Old["seq"]; ok && ov.Kind() == storage.KindN &&
		storage.CompareNumbers(v.Number(), ov.Number()) < 0 {
		c.add("A8", msgSeqDown, ov.Str(), v.Str())
	}
}

// master checks a master data row (A9): MASTER#<tenant>, and for a TTL
// setting (sort key TTL#<table>) attributes.days a Number of at least 0.
func (c *checker) master() {
	w := c.w
	if seg, _, _ := strings.Cut(w.Key.PK, KeySeparator); seg != masterPrefix {
		c.add("A9", msgMasterPK, w.Key.PK)
	}
	base := RemoveSortKeyVersion(w.Key.SK)
	table, ok := strings.CutPrefix(base, ttlPrefix+KeySeparator)
	if !ok {
		return
	}
	if table == "" {
		c.add("A9", msgTTLSettingNoTable, w.Key.SK)
	}
	attrs, ok := w.New["attributes"]
	if !ok {
		return
	}
	if attrs.Kind() != storage.KindM {
		c.add("A9", msgTTLSettingAttrs, attrs.Kind())
		return
	}
	days, ok := attrs.Map()["days"]
	switch {
	case !ok || days.Kind() == storage.KindNULL:
	case days.Kind() != storage.KindN:
		c.add("A9", msgTTLSettingDaysKind, days.Kind())
	case days.Number().Sign() < 0:
		c.add("A9", msgTTLSettingDaysNegative, days.Str())
	}
}
