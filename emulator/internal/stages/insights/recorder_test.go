package insights

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

var testStages = []service.Stage{Stage{}}

// TestRecorderMadeOnNeed: a namespace's recorder is made on first need,
// with the report's settings of the moment; a namespace nobody reports
// on or watches keeps none, whatever its traffic.
func TestRecorderMadeOnNeed(t *testing.T) {
	e := servicetest.New(t, service.Config{Stages: testStages})
	e.Must("CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	e.Must("PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"a"}}}`)
	e.Must("GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`)
	key, region := testkit.Credential(e.Auth)
	sp := e.Svc.SpaceFor(key, region)
	require.Nil(t, Existing(sp), "a recorder made with nobody reporting or watching")
	require.Empty(t, Contributors(e.Svc, "", "tbl", "", 10))
	ResetReport(e.Svc)
	require.Nil(t, Existing(sp), "ResetReport made a recorder")

	d, err := insights.ParseDesign([]byte("table tbl\nkey pk\n"))
	require.NoError(t, err)
	SetDesign(e.Svc, d)
	SetReporting(e.Svc, true)
	require.True(t, Reporting(e.Svc))
	require.Same(t, d, Design(e.Svc))
	require.Nil(t, Existing(sp), "the settings made a recorder: the first use makes it")

	e.Must("GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`)
	rec := Existing(sp)
	require.NotNil(t, rec, "a use while reporting made no recorder")
	require.True(t, rec.Reporting(), "the recorder made late does not follow the reporting setting")
	require.NotSame(t, d, rec.Design(), "each recorder learns into its own copy of the design")
	require.Equal(t, d.Tables[0].Name, rec.Design().Tables[0].Name, "the recorder made late does not follow the design")
	rep := ReportOf(e.Svc, key, region)
	require.Len(t, rep.Tables, 1)
	require.Equal(t, "tbl", rep.Tables[0].Table)

	SetReporting(e.Svc, false)
	require.False(t, rec.Reporting())
	require.Same(t, rec, RecorderOf(sp), "a second recorder")
}

// TestOnFindsRecorder: while no namespace has a recorder the stage's On
// is the service's reporting setting alone; once one is made, a
// recorder that collects while the setting is off still has the uses of
// its namespace recorded.
func TestOnFindsRecorder(t *testing.T) {
	e := servicetest.New(t, service.Config{Stages: testStages})
	e.Must("CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	e.Must("GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`)
	key, region := testkit.Credential(e.Auth)
	sp := e.Svc.SpaceFor(key, region)
	require.Nil(t, Existing(sp), "a use with nobody reporting made a recorder")

	rec := RecorderOf(sp)
	rec.SetReporting(true) // this recorder collects; the service's setting stays off
	require.False(t, Reporting(e.Svc))
	e.Must("GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`)
	rep := ReportOf(e.Svc, key, region)
	require.Len(t, rep.Tables, 1)
	require.Equal(t, "tbl", rep.Tables[0].Table)
	require.Equal(t, int64(1), rep.Tables[0].Resources[0].Gets,
		"the use of a namespace whose recorder collects was not recorded (nor the one before it)")
}
