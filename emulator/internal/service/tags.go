package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// A table's tags are part of its definition (tableMeta.tags, recorded
// with it), so they come and go with the table: CreateTable's Tags set
// them, through the checks here, and a feature's tagging operations
// change them through Table.ChangeTags (feature_definition.go). They
// are what the stages that check a table's definition read
// (stage_check.go), and its throttling follows them.

// Tag limits (AWS API reference, Tag; Developer Guide, tagging restrictions).
const (
	MaxTags   = 50 // per resource
	maxARNLen = 1283
)

// arnConstraints checks a ResourceArn against the model: 1 to 1283
// characters.
func arnConstraints(cs *apierr.Constraints, arn string) {
	if len(arn) < 1 {
		cs.Add(apierr.Quote(arn), "resourceArn", apierr.LenGE(1))
	}
	if len(arn) > maxARNLen {
		cs.Add(apierr.Quote(arn), "resourceArn", apierr.LenLE(maxARNLen))
	}
}
