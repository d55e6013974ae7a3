package emulator

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/accountops"
	"github.com/dynamoemu/dynamoemu/emulator/internal/backups"
	"github.com/dynamoemu/dynamoemu/emulator/internal/contributorinsights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/globaltables"
	"github.com/dynamoemu/dynamoemu/emulator/internal/lambdaesm"
	"github.com/dynamoemu/dynamoemu/emulator/internal/partiqlops"
	"github.com/dynamoemu/dynamoemu/emulator/internal/pitr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/resources"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	convstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/faults"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/iam"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/throttle"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tagging"
	"github.com/dynamoemu/dynamoemu/emulator/internal/transfers"
	"github.com/dynamoemu/dynamoemu/emulator/internal/ttl"
	"github.com/dynamoemu/dynamoemu/emulator/internal/vectorsearch"
)

// features are the table-level features the emulator links, handed to
// its service (service.Config.Features), which plugs them into the core
// through its seam (emulator/internal/service/feature.go). The core
// names none of them; internal/lint's seam test keeps every feature
// package listed here. The order is the service's: global tables come
// after point-in-time recovery, so that the replication tap is the
// outermost hook of a namespace's DB (service.Hooks.WrapDB).
func features() []service.Feature {
	return []service.Feature{
		accountops.Feature{},
		resources.Policies{},
		resources.KinesisDestinations{},
		transfers.Feature{},
		backups.Feature{},
		pitr.Feature{},
		tagging.Feature{},
		ttl.Feature{},
		streamsapi.Feature{},
		vectorsearch.Feature{},
		partiqlops.Feature{},
		contributorinsights.Feature{},
		globaltables.Feature{},
		lambdaesm.Feature{},
	}
}

// stages are the instruments, the stages of the service's request
// pipeline (service.Config.Stages; emulator/internal/service/stage.go),
// in their order: the conventions check (it takes part in no use: its
// checks, the tenant guard and the rules inside each write, run where the
// core's validation order and write path put them), the IAM policy mode
// (AWS authorizes a request before anything else sees it), then the
// report (its End hears of a use a later stage refused), then the fault
// rules, then the lags of consistency fuzzing (a read the rules refuse is
// not counted), then the throttler (last, so that no stage refuses a use
// after the throttler admitted it). A build with the nostages tag has
// none (stages_installed.go).
func stages() []service.Stage {
	if noStages {
		return nil
	}
	return []service.Stage{
		convstage.Stage{},
		iam.Stage{},
		reportstage.Stage{},
		faults.Stage{},
		lag.Stage{},
		throttle.Stage{},
	}
}

// settings are the stages' and features' settings from e's options,
// each under the key its reader declares (service.SettingOf), so that
// one of the wrong type does not compile.
func (e *Emulator) settings() []service.Setting {
	return []service.Setting{
		faults.Setting.With(e.inj),
		throttle.Setting.With(e.throttleSettings()),
		convstage.Setting.With(e.opts.Conventions),
		lag.LagsSetting.With(lag.NewSettings(lagSettings(e.opts.Faults.Lags))),
		transfers.S3DirSetting.With(transfers.S3Dir(e.opts.ExportDir)),
		streamsapi.ReaderWatchSetting.With(e.streamRead),
	}
}
