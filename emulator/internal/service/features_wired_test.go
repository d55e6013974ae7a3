package service_test

import (
	"context"

	"github.com/dynamoemu/dynamoemu/emulator/internal/accountops"
	"github.com/dynamoemu/dynamoemu/emulator/internal/fxstate"
	"github.com/dynamoemu/dynamoemu/emulator/internal/partiqlops"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	convstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/faults"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/iam"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/throttle"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tagging"
	"github.com/dynamoemu/dynamoemu/emulator/internal/ttl"
	"github.com/dynamoemu/dynamoemu/emulator/internal/vectorsearch"
	gates "github.com/dynamoemu/dynamoemu/internal/faults/lag"
	"github.com/dynamoemu/dynamoemu/internal/iampolicy"
)

// The core's tests run with the features whose operations its
// cross-cutting tests send (TestReplay compares tags, TTL settings and
// streams; TestLockOrder races them with every write path; the vector
// tests check the indexes every write path keeps with SearchVectors;
// the PartiQL statements run through the core's statement seam), and
// the stages the emulator installs (TestPipeline's conventions check, fault rules, report,
// lag and throttling; TestPipelineIAM's policies: stage_iam_test.go; TestLockOrder's lags: lockorder_lag_test.go; the
// report's settings and recorders: ReportHooks, pipeline_test.go),
// wired as the emulator wires them (emulator/features.go). A feature's
// own tests live in its package.
func init() {
	service.Use(accountops.Feature{})
	service.Use(tagging.Feature{})
	service.Use(ttl.Feature{})
	service.Use(streamsapi.Feature{})
	service.Use(vectorsearch.Feature{})
	service.Use(partiqlops.Feature{})
	service.UseStage(convstage.Stage{})
	service.UseStage(iam.Stage{})
	service.UseStage(insights.Stage{})
	service.UseStage(faults.Stage{})
	service.UseStage(lag.Stage{})
	service.UseStage(throttle.Stage{})
	service.TTLHooks.Sweep = ttl.Sweep
	service.IAMHooks.Enable = iam.Enable
	service.IAMHooks.Denied = func(ctx context.Context) context.Context {
		return iam.With(ctx, &iam.Identity{Principal: iampolicy.Principal{ARN: "arn:aws:iam::000000000000:user/pipeline"}}, iam.Origin{})
	}
	service.ReportHooks.SetReporting = insights.SetReporting
	service.ReportHooks.Recorder = insights.RecorderOf
	service.LagHooks.Settings = func(ls []fxstate.LagSetting) (any, func([]fxstate.LagSetting)) {
		s := lag.NewSettings(ls)
		return s, s.Set
	}
	service.LagHooks.IndexLag = func(s *service.Service, accessKey, region, table, index string) (service.LagGate, error) {
		return lagGate(lag.IndexLag(s, accessKey, region, table, index))
	}
	service.LagHooks.ReadLag = func(s *service.Service, accessKey, region, table string) (service.LagGate, error) {
		return lagGate(lag.TableReadLag(s, accessKey, region, table))
	}
}

// lagGate is g as the core's tests move it, or err.
func lagGate(g *gates.Gate, err error) (service.LagGate, error) {
	if err != nil {
		return nil, err
	}
	return g, nil
}
