package conventions

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// sequence checks a sequences row (A8): SEQ#<tenant>, seq a Number that
// only UpdateItem changes, by one at a time: a new row starts at 1
// (if_not_exists(seq, 0) + 1), or at the start the table declares for it
// (Policy.SequenceStart, by UpdateItem or PutItem), an existing one goes
// up by one or back to 1 (the framework's older genNewSequence resets a
// row to 1 when its rotation period changes). Whatever the write, seq is
// a whole number of at least 1: no path of the framework stores 0 (the
// master package's sequence copy skips a counter at 0). A seq that an
// update leaves alone is not judged further (the rules cannot tell it
// from one set to its own value).
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
	if n, ok := new(big.Int).SetString(v.Str(), 10); !ok || n.Sign() <= 0 {
		c.add("A8", msgSeqBelowOne, v.Str())
		return
	}
	start, declared := w.Policy.sequenceStart(w.Key.SK)
	hint := ""
	if declared {
		hint = "; this counter's declared start is " + strconv.FormatInt(start, 10)
	}
	ov, ok := w.Old["seq"]
	creates := !ok || ov.Kind() != storage.KindN
	if creates && declared && v.Str() == strconv.FormatInt(start, 10) {
		return // a counter created at its declared start, by UpdateItem or PutItem
	}
	if w.Op == OpPut {
		c.add("A8", msgSeqPut, hint)
		return
	}
	if creates {
		if v.Str() != "1" {
			c.add("A8", msgSeqStart, v.Str(), hint)
		}
		return
	}
	if storage.Equal(ov, v) || v.Str() == "1" {
		return
	}
	next := new(big.Int)
	if _, ok := next.SetString(ov.Str(), 10); !ok || next.Add(next, big.NewInt(1)).String() != v.Str() {
		c.add("A8", msgSeqStep, ov.Str(), v.Str())
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
		if len(base) > len(ttlPrefix) && strings.EqualFold(base[:len(ttlPrefix)+1], ttlPrefix+KeySeparator) {
			c.add("A17", msgTTLSettingCase, w.Key.SK, ttlPrefix+KeySeparator+base[len(ttlPrefix)+1:])
		}
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
