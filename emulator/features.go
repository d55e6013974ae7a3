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
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	consistency "github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/throttle"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tagging"
	"github.com/dynamoemu/dynamoemu/emulator/internal/transfers"
	"github.com/dynamoemu/dynamoemu/emulator/internal/ttl"
	"github.com/dynamoemu/dynamoemu/emulator/internal/vectorsearch"
)

// The table-level features the emulator links, plugged into the service
// core through its seam (emulator/internal/service/feature.go). The core
// names none of them; internal/lint's seam test keeps every feature
// package listed here. The order is Use's: global tables come after
// point-in-time recovery, so that the replication tap is the outermost
// hook of a namespace's DB (service.Hooker).
func init() {
	service.Use(accountops.Feature{})
	service.Use(resources.Policies{})
	service.Use(resources.KinesisDestinations{})
	service.Use(transfers.Feature{})
	service.Use(backups.Feature{})
	service.Use(pitr.Feature{})
	service.Use(tagging.Feature{})
	service.Use(ttl.Feature{})
	service.Use(streamsapi.Feature{})
	service.Use(vectorsearch.Feature{})
	service.Use(partiqlops.Feature{})
	service.Use(contributorinsights.Feature{})
	service.Use(globaltables.Feature{})
	service.Use(lambdaesm.Feature{})

	// The instruments moved out of the core, as stages of its request
	// pipeline (emulator/internal/service/stage.go), in their order: the
	// IAM policy mode first (AWS authorizes a request before anything
	// else sees it), then the report (its End hears of a use a later
	// stage refused), then the fault rules, then the lags of consistency
	// fuzzing (a read the rules refuse is not counted), then the
	// throttler (last, so that no stage refuses a use after the throttler
	// admitted it). The conventions check takes part in no use: its
	// checks (the tenant guard, the rules inside each write) run where
	// the core's validation order and write path put them.
	// A build with the nostages tag installs no other (stages_installed.go).
	if noStages {
		return
	}
	service.UseStage(convstage.Stage{})
	service.UseStage(iam.Stage{})
	service.UseStage(insights.Stage{})
	service.UseStage(faults.Stage{})
	service.UseStage(consistency.Stage{})
	service.UseStage(throttle.Stage{})
}
