package service_test

import (
	"context"
	"os"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/accountops"
	"github.com/dynamoemu/dynamoemu/emulator/internal/partiqlops"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	convstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/faults"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/iam"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/throttle"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stagestate"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tagging"
	"github.com/dynamoemu/dynamoemu/emulator/internal/ttl"
	"github.com/dynamoemu/dynamoemu/emulator/internal/vectorsearch"
	"github.com/dynamoemu/dynamoemu/internal/iampolicy"
)

// TestMain wires the core's tests as the emulator wires its service
// (emulator/features.go): the features whose operations its
// cross-cutting tests send (TestReplay compares tags, TTL settings and
// streams; TestLockOrder races them with every write path; the vector
// tests check the indexes every write path keeps with SearchVectors; the
// PartiQL statements run through the core's statement seam), and the
// stages the emulator installs (TestPipelineStages' conventions check,
// fault rules, report, lag and throttling; TestPipelineIAM's policies:
// stage_iam_test.go; TestLockOrder's lags: lockorder_lag_test.go; the
// report's settings and recorders: ReportHooks, pipeline_test.go). A
// test that builds its own service (TestPipeline's one recording stage)
// names its features and stages in its Config. A feature's own tests
// live in its package.
func TestMain(m *testing.M) {
	service.Wire([]service.Feature{
		accountops.Feature{},
		tagging.Feature{},
		ttl.Feature{},
		streamsapi.Feature{},
		vectorsearch.Feature{},
		partiqlops.Feature{},
	}, []service.Stage{
		convstage.Stage{},
		iam.Stage{},
		reportstage.Stage{},
		faults.Stage{},
		lag.Stage{},
		throttle.Stage{},
	})
	service.TTLHooks.Sweep = ttl.Sweep
	service.IAMHooks.Enable = iam.Enable
	service.IAMHooks.Denied = func(ctx context.Context) context.Context {
		return iam.With(ctx, &iam.Identity{Principal: iampolicy.Principal{ARN: "arn:aws:iam::000000000000:user/pipeline"}}, iam.Origin{})
	}
	service.ReportHooks.SetReporting = reportstage.SetReporting
	service.ReportHooks.Recorder = reportstage.RecorderOf
	service.LagHooks.Settings = func(ls []stagestate.LagSetting) (service.Setting, func([]stagestate.LagSetting)) {
		s := lag.NewSettings(ls)
		return lag.LagsSetting.With(s), s.Set
	}
	service.LagHooks.IndexLag = func(s *service.Service, accessKey, region, table, index string) (service.LagGate, error) {
		return lagGate(lag.IndexLag(s, accessKey, region, table, index))
	}
	service.LagHooks.ReadLag = func(s *service.Service, accessKey, region, table string) (service.LagGate, error) {
		return lagGate(lag.TableReadLag(s, accessKey, region, table))
	}
	service.LagHooks.Fuzzer = func(seed uint64) service.Setting { return lag.FuzzerSetting.With(lag.NewFuzzer(seed)) }
	os.Exit(m.Run())
}

// lagGate is g as the core's tests move it, or err.
func lagGate[G service.LagGate](g G, err error) (service.LagGate, error) {
	if err != nil {
		return nil, err
	}
	return g, nil
}
