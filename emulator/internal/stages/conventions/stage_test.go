package conventions_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	convstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/conventions"
	"github.com/stretchr/testify/require"
)

var testStages = []service.Stage{convstage.Stage{}}

// commandTable is CreateTable's body for a command table name (pk, sk
// strings) streaming NEW_IMAGE, with tags (JSON, "": none).
func commandTable(name, tags string) string {
	body := `{"TableName":"` + name + `","BillingMode":"PAY_PER_REQUEST",` +
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],` +
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],` +
		`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}`
	if tags != "" {
		body += `,"Tags":` + tags
	}
	return body + "}"
}

// unguarded is a PutItem of a command row with no create guard (rule B6).
const unguarded = `{"TableName":"cmd","Item":{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"ORDER#1@1"},` +
	`"id":{"S":"ORDER#tenant001#ORDER#1"},"version":{"N":"1"},"tenantCode":{"S":"tenant001"}}}`

// TestStageChecks: the stage takes its configuration from the service's
// settings (a bad one fails New), resolves a table's policy from it or
// from the table's tags, refuses an enforced write that breaks a rule
// with nothing written, and reports the table and the violation until
// the report is reset.
func TestStageChecks(t *testing.T) {
	_, err := service.New(service.Config{Stages: testStages, Settings: []service.Setting{convstage.Setting.With(&conventions.Config{Tables: []conventions.TableConfig{
		{Match: "[", Policy: conventions.Policy{Roles: conventions.RoleCommand}}}})}})
	require.Error(t, err, "a configuration with a bad match pattern made a service")

	env := servicetest.New(t, service.Config{Stages: testStages, Settings: []service.Setting{convstage.Setting.With(&conventions.Config{Tables: []conventions.TableConfig{
		{Match: "cmd", Policy: conventions.Policy{Roles: conventions.RoleCommand}}}})}})
	env.Must("CreateTable", commandTable("cmd", ""))
	body := env.Refused("PutItem", unguarded, "ValidationException")
	require.Contains(t, body, "B6")
	_, out := env.Send("GetItem", `{"TableName":"cmd","Key":{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"ORDER#1@1"}}}`)
	require.NotContains(t, out, `"Item"`, "a refused write was written")

	rep := convstage.Report(env.Svc)
	require.Len(t, rep.Checked, 1)
	require.Equal(t, "cmd", rep.Checked[0].Table)
	require.NotEmpty(t, rep.Checked[0].Namespace, "a checked table of a namespace, not shared, names it")
	require.Positive(t, convstage.Count(env.Svc, "cmd", "B6"))
	convstage.ResetReport(env.Svc)
	require.Zero(t, convstage.Count(env.Svc, "cmd", ""))

	// A table that opts in by its tags alone, as the framework's are
	// tagged; and one that does not opt in at all.
	env.Must("CreateTable", commandTable("tagged", `[{"Key":"`+conventions.TagRoles+`","Value":"command"}]`))
	env.Must("CreateTable", commandTable("plain", ""))
	env.Refused("PutItem", `{"TableName":"tagged"`+unguarded[len(`{"TableName":"cmd"`):], "ValidationException")
	env.Must("PutItem", `{"TableName":"plain"`+unguarded[len(`{"TableName":"cmd"`):])
	names := []string{}
	for _, c := range convstage.Report(env.Svc).Checked {
		names = append(names, c.Table)
	}
	require.ElementsMatch(t, []string{"cmd", "tagged"}, names)
}

// TestStageReplayed: a table's policy is rebuilt when the table is read
// back from its records (LoadedDefinition), from its tags and the
// configuration, so that the rules hold after a restart as before it.
func TestStageReplayed(t *testing.T) {
	cfg := service.Config{Stages: testStages, Settings: []service.Setting{convstage.Setting.With(&conventions.Config{Tables: []conventions.TableConfig{
		{Match: "cmd", Policy: conventions.Policy{Roles: conventions.RoleCommand}}}})}}
	env, rec := servicetest.Recorded(t, cfg)
	env.Must("CreateTable", commandTable("cmd", ""))
	env.Must("CreateTable", commandTable("tagged", `[{"Key":"`+conventions.TagRoles+`","Value":"command"}]`))
	env.Must("CreateTable", commandTable("plain", ""))

	back := servicetest.Replay(t, rec, cfg, env.Clock.Now())
	var names []string
	for _, c := range convstage.Report(back.Svc).Checked {
		names = append(names, c.Table)
	}
	require.ElementsMatch(t, []string{"cmd", "tagged"}, names, "the tables checked after the replay")
	back.Refused("PutItem", unguarded, "ValidationException")
	back.Refused("PutItem", `{"TableName":"tagged"`+unguarded[len(`{"TableName":"cmd"`):], "ValidationException")
	back.Must("PutItem", `{"TableName":"plain"`+unguarded[len(`{"TableName":"cmd"`):])
}

// TestStageGuardsNewTable: a new table's policy is stored once its
// definition is published, and the core asks whether the stage guards a
// table once per definition; reads that run while the table is made, and
// find it before its policy is stored, leave it guarded all the same
// (rule A14, a data table read by a versioned sort key, made strict).
func TestStageGuardsNewTable(t *testing.T) {
	env := servicetest.New(t, service.Config{Stages: testStages, Settings: []service.Setting{convstage.Setting.With(&conventions.Config{Tables: []conventions.TableConfig{
		{Match: "data*", Policy: conventions.Policy{Roles: conventions.RoleData, Strict: []string{"A14"}}}}})}})
	for i := range 20 {
		name := fmt.Sprintf("data%d", i)
		read := `{"TableName":"` + name + `","Key":{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"ORDER#1@1"}}}`
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
						env.Send("GetItem", read)
					}
				}
			}()
		}
		env.Must("CreateTable", commandTable(name, ""))
		body := env.Refused("GetItem", read, "ValidationException")
		close(stop)
		wg.Wait()
		require.Contains(t, body, "A14")
	}
}
