package tablespec

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Names and identities a table and its stream are given (a TableId, a
// stream's label and shard id) and the rules of a table name.

// NewShardID returns a shard id in AWS's shape:
// shardId-<20-digit creation time in ms>-<8 hex digits>.
func NewShardID(now time.Time) string {
	var b strings.Builder
	b.WriteString("shardId-")
	ms := strconv.FormatInt(now.UnixMilli(), 10)
	b.WriteString(strings.Repeat("0", max(0, 20-len(ms))))
	b.WriteString(ms)
	b.WriteByte('-')
	b.WriteString(NewUUID()[:8])
	return b.String()
}

// NextStreamLabel is the label of a table's new stream created at now: its
// time, or a millisecond after the previous label when that is not
// earlier, so every stream of a table has its own ARN.
func NextStreamLabel(prev string, now time.Time) string {
	label := StreamLabel(now)
	if prev == "" || label > prev {
		return label
	}
	t, err := time.Parse("2006-01-02T15:04:05.000", prev)
	if err != nil {
		return label
	}
	return StreamLabel(t.Add(time.Millisecond))
}

// StreamLabel formats a stream's creation time as AWS's LatestStreamLabel.
func StreamLabel(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000")
}

// NewUUID returns a random version-4 UUID (TableId).
func NewUUID() string {
	hi, lo := rand.Uint64(), rand.Uint64()
	hi = hi&^0xf000 | 0x4000     // version 4
	lo = lo&^(0xc<<60) | 0x8<<60 // RFC 4122 variant
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x",
		hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// TableNameConstraints checks a TableName parameter that names an existing
// table: a name of 3..255 characters from [a-zA-Z0-9_.-], or a table ARN.
// Since tables are addressable by ARN the parameter's model length is
// 1..1024, but AWS still reports a bad name at 'tableName' like this
// (observed on AWS for DescribeTable in 2026).
func TableNameConstraints(cs *apierr.Constraints, name string) {
	if strings.HasPrefix(name, "arn:") && len(name) <= 1024 {
		return
	}
	if name == "" {
		// The model's minimum length (1, since ARNs are accepted) alone:
		// AWS reports no pattern error for "" (records of AWS's PutItem
		// and UpdateItem answers, e.g. moto's aws_verified tests).
		cs.Add("''", "tableName", apierr.LenGE(1))
		return
	}
	apierr.NameConstraints(cs, name, "tableName")
}

// BatchTableName reports whether s may be a key of a batch's
// RequestItems: a table name or a table ARN (which the lookup checks).
func BatchTableName(s string) bool {
	return strings.HasPrefix(s, "arn:") || ValidTableName(s)
}

// ValidTableName reports whether s follows DynamoDB's rules for table and
// index names: 3 to 255 characters from [a-zA-Z0-9_.-].
func ValidTableName(s string) bool {
	if len(s) < 3 || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !apierr.NameChar(s[i]) {
			return false
		}
	}
	return true
}

// TableNameViolations are the constraint violations of an item operation's
// TableName, first in the request's list as AWS lists them (AWS's
// answers: "1 validation error detected: Value null at 'tableName' failed
// to satisfy constraint: Member must not be null" for none, the length-1
// constraint alone for "").
//
// A name has at most two violations (pattern and length), returned as two
// strings ("" for none) so that the common case allocates nothing.
func TableNameViolations(name *string) (string, string) {
	if name == nil {
		return apierr.NullViolation("tableName", true), ""
	}
	if ValidTableName(*name) {
		return "", ""
	}
	var cs apierr.Constraints
	TableNameConstraints(&cs, *name)
	switch len(cs.Msgs) {
	case 0:
		return "", ""
	case 1:
		return cs.Msgs[0], ""
	}
	return cs.Msgs[0], cs.Msgs[1]
}
