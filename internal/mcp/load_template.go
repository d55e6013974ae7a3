package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/iac"
)

// Loading the tables of infrastructure code (package iac): a
// CloudFormation or SAM template, cdk synth's output or a serverless.yml.
// Each table is created through the DynamoDB API like any client's, then
// given the settings CreateTable does not take (TTL, point-in-time
// recovery, contributor insights, a global table's other replicas).

// TemplateLoad is what loading a template did.
type TemplateLoad struct {
	Tables  []LoadedTable
	Skipped []string          // the resources not read: "LogicalId (Type)"
	Outputs map[string]string // the template's Outputs, resolved
}

// IsTemplate reports whether src is infrastructure code LoadTemplate
// reads rather than a NoSQL Workbench model.
func IsTemplate(src []byte) bool { return iac.Sniff(src) != "" }

// LoadTemplate creates the DynamoDB tables of the template src in emu's
// namespace accessKey/region ("" for local/us-east-1), reading
// serverless' ${env:...} with getenv. A table that exists is left as it
// is. The whole template is read first: one that cannot be read creates
// nothing.
func LoadTemplate(ctx context.Context, emu *emulator.Emulator, accessKey, region string, src []byte, getenv func(string) string) (TemplateLoad, error) {
	o := Options{AccessKey: accessKey, Region: region}.withDefaults()
	tpl, err := iac.Read(src, iac.Options{Region: o.Region, Getenv: getenv})
	if err != nil {
		return TemplateLoad{}, err
	}
	eng := newEngine(emu, o.AccessKey, o.Region)
	out := TemplateLoad{Skipped: tpl.Skipped}
	for _, t := range tpl.Tables {
		lt := LoadedTable{Table: t.Name}
		_, err := eng.callJSON(ctx, apiDynamoDB, "CreateTable", t.Create, nil)
		var ae *apiError
		switch {
		case errors.As(err, &ae) && ae.Type == "ResourceInUseException":
			lt.Note = "the table exists: left as it is"
			out.Tables = append(out.Tables, lt)
			continue
		case err != nil:
			return out, fmt.Errorf("creating table %s (%s): %w", t.Name, t.LogicalID, err)
		}
		lt.Created = true
		if err := settle(ctx, eng, t); err != nil {
			return out, fmt.Errorf("table %s (%s): %w", t.Name, t.LogicalID, err)
		}
		out.Tables = append(out.Tables, lt)
	}
	out.Outputs, err = tpl.Outputs(func(id, attr string) (string, error) {
		for _, t := range tpl.Tables {
			if t.LogicalID != id {
				continue
			}
			var d struct {
				Table struct{ LatestStreamArn string }
			}
			if _, err := eng.callJSON(ctx, apiDynamoDB, "DescribeTable", map[string]any{"TableName": t.Name}, &d); err != nil {
				return "", err
			}
			if d.Table.LatestStreamArn == "" {
				return "", fmt.Errorf("%s.%s: the table has no stream", id, attr)
			}
			return d.Table.LatestStreamArn, nil
		}
		return "", fmt.Errorf("%s: not a table of the template", id)
	})
	return out, err
}

// settle gives a new table what CreateTable does not take, each once the
// table is ACTIVE.
func settle(ctx context.Context, eng engine, t iac.Table) error {
	name := map[string]any{"TableName": t.Name}
	type step struct {
		op   string
		body map[string]any
	}
	var steps []step
	if t.TTL != nil {
		steps = append(steps, step{"UpdateTimeToLive", map[string]any{"TableName": t.Name, "TimeToLiveSpecification": t.TTL}})
	}
	if t.PITR != nil {
		steps = append(steps, step{"UpdateContinuousBackups", map[string]any{"TableName": t.Name, "PointInTimeRecoverySpecification": t.PITR}})
	}
	if t.ContributorInsights != "" {
		steps = append(steps, step{"UpdateContributorInsights", map[string]any{"TableName": t.Name, "ContributorInsightsAction": t.ContributorInsights}})
	}
	for _, r := range t.Replicas {
		steps = append(steps, step{"UpdateTable", map[string]any{"TableName": t.Name, "ReplicaUpdates": []any{map[string]any{"Create": map[string]any{"RegionName": r}}}}})
	}
	for _, s := range steps {
		if err := waitActive(ctx, eng, name); err != nil {
			return err
		}
		if _, err := eng.callJSON(ctx, apiDynamoDB, s.op, s.body, nil); err != nil {
			return fmt.Errorf("%s: %w", s.op, err)
		}
	}
	return waitActive(ctx, eng, name)
}

// waitActive polls DescribeTable until the table and its replicas are
// ACTIVE (-delayTransientStatuses holds them for half a second).
func waitActive(ctx context.Context, eng engine, name map[string]any) error {
	for range 600 {
		var d struct {
			Table struct {
				TableStatus string
				Replicas    []struct{ ReplicaStatus string }
			}
		}
		if _, err := eng.callJSON(ctx, apiDynamoDB, "DescribeTable", name, &d); err != nil {
			return err
		}
		active := d.Table.TableStatus == "ACTIVE"
		for _, r := range d.Table.Replicas {
			active = active && r.ReplicaStatus == "ACTIVE"
		}
		if active {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("not ACTIVE after 30s")
}
