package conventions_test

import (
	"fmt"
	"testing"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	convstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/conventions"
)

// BenchmarkConventionsPutItem is the framework's command-row create
// (conditional PutItem of <sk>@<N>) through the handler, on a table that
// does not opt in and on one enforced as a command table (streaming
// NEW_IMAGE, as the framework's command tables do, so rule A11 is met).
func BenchmarkConventionsPutItem(b *testing.B) {
	cfg := &conventions.Config{Tables: []conventions.TableConfig{
		{Match: "app-order-command", Policy: conventions.Policy{Roles: conventions.RoleCommand}},
	}}
	for _, table := range []string{"app-order-plain", "app-order-command"} {
		b.Run(table, func(b *testing.B) {
			env := servicetest.New(b, service.Config{Stages: testStages, Settings: []service.Setting{convstage.Setting.With(cfg)}})
			env.Must("CreateTable", `{"TableName":"`+table+`","BillingMode":"PAY_PER_REQUEST",
				"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
				"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
				"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				body := fmt.Sprintf(`{"TableName":%q,"Item":{"pk":{"S":"ORDER#tenant001"},"sk":{"S":"ORDER#1@%d"},
					"id":{"S":"ORDER#tenant001#ORDER#1"},"version":{"N":"%d"},"tenantCode":{"S":"tenant001"}},
					"ConditionExpression":"attribute_not_exists(pk) AND attribute_not_exists(sk)"}`, table, i+1, i+1)
				if status, out := env.Send("PutItem", body); status != 200 {
					b.Fatalf("PutItem: %d %s", status, out)
				}
			}
			if n := convstage.Count(env.Svc, table, ""); n != 0 {
				b.Fatalf("%d violations", n)
			}
		})
	}
}
