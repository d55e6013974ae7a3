package pitr

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// DescribeContinuousBackups and UpdateContinuousBackups: a table's
// point-in-time recovery setting (its history is pitr.go's). AWS's API
// reference is the spec
// (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContinuousBackups.html):
// continuous backups are ENABLED on every table from its creation; point
// in time recovery is off until enabled, with a RecoveryPeriodInDays of
// 1 to 35 (35 when not given); the restorable window runs from
// EarliestRestorableDateTime to LatestRestorableDateTime. DynamoDB Local
// has neither operation (UnknownOperationException).

// defaultRecoveryPeriodDays is RecoveryPeriodInDays when not given.
const (
	defaultRecoveryPeriodDays = 35
	maxRecoveryPeriodDays     = 35
)

func describeContinuousBackups(c service.Call, in *DescribeContinuousBackupsInput) (*DescribeContinuousBackupsOutput, error) {
	t, err := c.BackupSourceTable(in.TableName, "tableName")
	if err != nil {
		return nil, err
	}
	return &DescribeContinuousBackupsOutput{ContinuousBackupsDescription: continuousBackups(c, t)}, nil
}

func updateContinuousBackups(c service.Call, in *UpdateContinuousBackupsInput) (*UpdateContinuousBackupsOutput, error) {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, in.TableName, "tableName") {
		tablespec.TableNameConstraints(&cs, *in.TableName)
	}
	spec := in.PointInTimeRecoverySpecification
	if apierr.NotNull(&cs, spec, "pointInTimeRecoverySpecification") {
		apierr.NotNull(&cs, spec.PointInTimeRecoveryEnabled, "pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled")
		if d := spec.RecoveryPeriodInDays; d != nil {
			if *d < 1 {
				cs.Add(apierr.QuoteInt(*d), "pointInTimeRecoverySpecification.recoveryPeriodInDays", apierr.ValGE(1))
			} else if *d > maxRecoveryPeriodDays {
				cs.Add(apierr.QuoteInt(*d), "pointInTimeRecoverySpecification.recoveryPeriodInDays", apierr.ValLE(maxRecoveryPeriodDays))
			}
		}
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	t, err := c.BackupSourceTable(in.TableName, "tableName")
	if err != nil {
		return nil, err
	}
	enable := *spec.PointInTimeRecoveryEnabled
	days := int(defaultRecoveryPeriodDays)
	if spec.RecoveryPeriodInDays != nil {
		days = int(*spec.RecoveryPeriodInDays)
	}
	if err := t.ChangeRecovery(c.Now(), enable, days); err != nil {
		return nil, err
	}
	return &UpdateContinuousBackupsOutput{ContinuousBackupsDescription: continuousBackups(c, t)}, nil
}

// continuousBackups describes t's continuous backups now.
func continuousBackups(c service.Call, t service.Table) *ContinuousBackupsDescription {
	d := &PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: "DISABLED"}
	if r := t.Definition().Settings().Recovery; r.On {
		d.PointInTimeRecoveryStatus = "ENABLED"
		d.RecoveryPeriodInDays = int64(r.Days)
		if l := recorderOf(t).get(t.Info().ID); l != nil {
			earliest, latest := l.window(c.Clock())
			d.EarliestRestorableDateTime, d.LatestRestorableDateTime = tablespec.EpochPtr(earliest), tablespec.EpochPtr(latest)
		}
	}
	return &ContinuousBackupsDescription{ContinuousBackupsStatus: "ENABLED", PointInTimeRecoveryDescription: d}
}
