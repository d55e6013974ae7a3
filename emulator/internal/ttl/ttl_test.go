package ttl

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The feature in use in this package's tests, as the emulator uses it.
var testFeatures = []service.Feature{Feature{}}

const table = `{"TableName":"ttltab","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`

// spec is an UpdateTimeToLive body for ttltab.
func spec(enabled, attr string) string {
	return `{"TableName":"ttltab","TimeToLiveSpecification":{"Enabled":` + enabled + `,"AttributeName":"` + attr + `"}}`
}

// TestTimeToLiveLifecycle: each step's answer (the specification echoed,
// or the error AWS gives) and DescribeTimeToLive afterwards.
func TestTimeToLiveLifecycle(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures})
	e.Must("CreateTable", table)
	steps := []struct {
		name, body string
		errMsg     string // "" : answered
		describe   string
	}{
		{"created", "", "", `{"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}}`},
		{"disable while off", spec("false", "exp"), "TimeToLive is already disabled", `{"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}}`},
		{"enable", spec("true", "exp"), "", `{"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"exp"}}`},
		{"enable again", spec("true", "exp"), "TimeToLive is already enabled", `{"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"exp"}}`},
		{"enable another", spec("true", "other"), "TimeToLive is active on a different AttributeName", `{"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"exp"}}`},
		{"disable another", spec("false", "other"), "TimeToLive is active on a different AttributeName", `{"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"exp"}}`},
		{"disable", spec("false", "exp"), "", `{"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}}`},
		{"enable another after", spec("true", "other"), "", `{"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"other"}}`},
	}
	for _, s := range steps {
		if s.body != "" {
			status, out := e.Send("UpdateTimeToLive", s.body)
			if s.errMsg == "" {
				require.Equal(t, 200, status, "%s: %s", s.name, out)
				want := strings.TrimSuffix(strings.TrimPrefix(s.body, `{"TableName":"ttltab",`), "}")
				require.JSONEq(t, "{"+want+"}", out, "%s: the answer echoes the specification", s.name)
			} else {
				require.Equal(t, 400, status, "%s: %s", s.name, out)
				typ, msg := testkit.ErrorOf(out)
				require.Equal(t, "ValidationException", typ, s.name)
				require.Equal(t, s.errMsg, msg, s.name)
			}
		}
		require.Equal(t, s.describe, e.Must("DescribeTimeToLive", `{"TableName":"ttltab"}`), s.name)
	}
}

// TestTimeToLiveErrors: the model's constraints, then the table.
func TestTimeToLiveErrors(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures})
	e.Must("CreateTable", table)
	for _, tc := range []struct {
		name, op, body string
		typ, msg       string
	}{
		{"update: no table name", "UpdateTimeToLive", `{"TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}}`, "ValidationException",
			"1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"update: no specification", "UpdateTimeToLive", `{"TableName":"ttltab"}`, "ValidationException",
			"1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null"},
		{"update: empty attribute", "UpdateTimeToLive", spec("true", ""), "ValidationException",
			"1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"update: attribute of 256", "UpdateTimeToLive", spec("true", strings.Repeat("a", 256)), "ValidationException",
			"1 validation error detected: Value '" + strings.Repeat("a", 256) + "' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length less than or equal to 255"},
		{"update: missing table", "UpdateTimeToLive", strings.Replace(spec("true", "exp"), "ttltab", "nosuch", 1), "ResourceNotFoundException",
			"Cannot do operations on a non-existent table"},
		{"describe: no table name", "DescribeTimeToLive", `{}`, "ValidationException",
			"1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"describe: missing table", "DescribeTimeToLive", `{"TableName":"nosuch"}`, "ResourceNotFoundException",
			"Cannot do operations on a non-existent table"},
	} {
		status, out := e.Send(tc.op, tc.body)
		require.Equal(t, 400, status, "%s: %s", tc.name, out)
		typ, msg := testkit.ErrorOf(out)
		require.Equal(t, tc.typ, typ, tc.name)
		require.Equal(t, tc.msg, msg, tc.name)
	}
	require.Equal(t, `{"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}}`, e.Must("DescribeTimeToLive", `{"TableName":"ttltab"}`),
		"a refused request changes nothing")
}

// TestTimeToLiveRecorded: the setting is recorded with the table's
// definition where it always was (the record's ttlEnabled and ttlAttr),
// so a replay of the records has it, and the sweeper deletes by
// it.
func TestTimeToLiveRecorded(t *testing.T) {
	e, rec := servicetest.Recorded(t, service.Config{Features: testFeatures})
	e.Must("CreateTable", table)
	e.Must("UpdateTimeToLive", spec("true", "exp"))
	past := servicetest.Start.Add(-1).Unix()
	e.Must("PutItem", `{"TableName":"ttltab","Item":{"pk":{"S":"old"},"exp":{"N":"`+strconv.FormatInt(past, 10)+`"}}}`)

	e2 := servicetest.Replay(t, rec, service.Config{Features: testFeatures}, e.Clock.Now())
	require.Equal(t, `{"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"exp"}}`,
		e2.Must("DescribeTimeToLive", `{"TableName":"ttltab"}`))
	require.Equal(t, 1, Sweep(e2.Svc), "the sweeper deletes by the replayed setting")
	require.Equal(t, 1, Sweep(e.Svc), "the sweeper deletes by the setting")
}

// TestExpired: a Number of epoch seconds before now and at most five
// years before it expires its item; anything else does not.
func TestExpired(t *testing.T) {
	now := servicetest.Start
	n := func(s string) storage.Value { return storage.N(storage.MustNumber(s)) }
	sec := func(d time.Time) string { return strconv.FormatInt(d.Unix(), 10) }
	for _, tc := range []struct {
		name string
		v    storage.Value
		ok   bool
		want bool
	}{
		{"a second ago", n(sec(now.Add(-time.Second))), true, true},
		{"a fraction before now", n(strconv.FormatFloat(float64(now.UnixNano())/1e9-0.5, 'f', 3, 64)), true, true},
		{"a second ahead", n(sec(now.Add(time.Second))), true, false},
		{"five years ago", n(sec(now.AddDate(-5, 0, 0))), true, true},
		{"over five years ago", n(sec(now.AddDate(-5, 0, 0).Add(-time.Second))), true, false},
		{"a string", storage.S(sec(now.Add(-time.Second))), true, false},
		{"missing", storage.Value{}, false, false},
	} {
		require.Equal(t, tc.want, expired(tc.v, tc.ok, now), tc.name)
	}
}
