package insights

import "github.com/dynamoemu/dynamoemu/internal/storage"

// match returns the index in t.Patterns of the pattern that serves
// request q best, or -1: among the patterns of the same access on the
// same index whose key condition q's key satisfies, the one with the most
// literal text (then a sort key condition), the first declared on a tie.
func (t *DesignTable) match(q *Request) int {
	best, bestScore := -1, -1
	for i, pt := range t.Patterns {
		if pt.Access != q.Access || pt.Index != q.Index {
			continue
		}
		score, ok := pt.matches(&q.Key)
		if ok && score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// matches reports whether key k satisfies the pattern's key condition,
// and how specifically (literal bytes matched, plus one for a sort key
// condition). A pattern without a sort key condition takes any sort key
// condition (a narrower request of the same pattern); one with a
// condition takes only a request with the same kind of condition whose
// values fit its templates.
func (pt *Pattern) matches(k *KeyCondition) (int, bool) {
	if !pt.HasPK {
		return 0, true // a scan
	}
	if !k.Partition.IsValid() || !pt.PK.match(matchText(k.Partition), false) {
		return 0, false
	}
	score := pt.PK.weight()
	if pt.SortOp == SortNone {
		return score, true
	}
	if k.SortOp != pt.SortOp {
		return 0, false
	}
	v := matchText(k.Sort)
	switch pt.SortOp {
	case SortBeginsWith:
		if !pt.SK.match(v, true) {
			return 0, false
		}
	case SortBetween:
		if !pt.SK.match(v, false) || !pt.SK2.match(matchText(k.Sort2), false) {
			return 0, false
		}
		score += pt.SK2.weight()
	default:
		if !pt.SK.match(v, false) {
			return 0, false
		}
	}
	return score + pt.SK.weight() + 1, true
}

// matchText is a key value as templates match it: the text of S and N
// values; B values are matched in base64, as a design writes them.
func matchText(v storage.Value) string {
	if v.Kind() == storage.KindB {
		return keyText(v)
	}
	return v.Str()
}

// hasWritePatterns reports whether the table declares any write pattern:
// only then are its writes checked against the design.
func (t *DesignTable) hasWritePatterns() bool {
	for _, pt := range t.Patterns {
		if pt.Access.IsWrite() {
			return true
		}
	}
	return false
}
