package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	// Namespace is where the tables are: ACCESSKEY/REGION.
	Namespace string            `json:"namespace"`
	Tables    []LoadedTable     `json:"tables"`
	Skipped   []string          `json:"skipped,omitempty"` // the resources not read: "LogicalId (Type)"
	Outputs   map[string]string `json:"outputs,omitempty"` // the template's Outputs, resolved
	// Unresolved are the outputs left out and why.
	Unresolved []string `json:"unresolved,omitempty"`
	// Dotenv is the .env file a serverless.yml's useDotenv read, or "".
	Dotenv string `json:"dotenv,omitempty"`
}

// IsTemplate reports whether src is infrastructure code LoadTemplate
// reads rather than a NoSQL Workbench model.
func IsTemplate(src []byte) bool { return iac.Sniff(src) != "" }

// TemplateKind is iac.Kind: "cloudformation", "serverless" or "" (YAML
// or JSON, but no template), or why src is neither YAML nor JSON, with
// the line and column.
func TemplateKind(src []byte) (string, error) { return iac.Kind(src) }

// TemplateOptions are what LoadTemplate reads a template with.
type TemplateOptions struct {
	// Getenv reads serverless' ${env:...}; nil reads nothing.
	Getenv func(string) string
	// Dir is the template's directory, where a serverless.yml with
	// useDotenv: true has its .env files; "": none is read.
	Dir string
}

// LoadTemplate creates the DynamoDB tables of the template src in emu's
// namespace accessKey/region: accessKey "" is local; region "" is the
// region the template names (a serverless.yml's provider.region), else
// us-east-1. o gives serverless' ${env:...} and the directory of its
// .env files. A table that
// exists is left as it is. The whole template is read first: one that
// cannot be read creates nothing, and a table DynamoDB refuses deletes
// those this load made before it.
func LoadTemplate(ctx context.Context, emu *emulator.Emulator, accessKey, region string, src []byte, o TemplateOptions) (TemplateLoad, error) {
	if accessKey == "" {
		accessKey = "local"
	}
	tpl, err := iac.Read(src, iac.Options{Region: region, Getenv: o.Getenv, Dir: o.Dir})
	if err != nil {
		return TemplateLoad{}, err
	}
	eng := newEngine(emu, accessKey, tpl.Region)
	out := TemplateLoad{Namespace: accessKey + "/" + tpl.Region, Skipped: tpl.Skipped, Dotenv: tpl.Dotenv}
	undo := func(err error) (TemplateLoad, error) {
		if derr := out.undo(ctx, eng); derr != nil {
			return TemplateLoad{}, fmt.Errorf("%w (and %v)", err, derr)
		}
		return TemplateLoad{}, fmt.Errorf("%w: nothing was created", err)
	}
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
			return undo(fmt.Errorf("creating table %s (%s): %w", t.Name, t.LogicalID, err))
		}
		lt.Created = true
		out.Tables = append(out.Tables, lt)
		if err := settle(ctx, eng, t); err != nil {
			return undo(fmt.Errorf("table %s (%s): %w", t.Name, t.LogicalID, err))
		}
	}
	out.Outputs, out.Unresolved = tpl.Outputs(func(id, attr string) (string, error) {
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
	return out, nil
}

// Undo deletes the tables the load created (a later file of the same
// load failed).
func (l TemplateLoad) Undo(ctx context.Context, emu *emulator.Emulator) error {
	ak, region, _ := strings.Cut(l.Namespace, "/")
	return l.undo(ctx, newEngine(emu, ak, region))
}

func (l TemplateLoad) undo(ctx context.Context, eng engine) error {
	for _, lt := range l.Tables {
		if lt.Created {
			if err := deleteMade(ctx, eng, lt.Table); err != nil {
				return fmt.Errorf("deleting table %s again: %v", lt.Table, err)
			}
		}
	}
	return nil
}

// deleteMade deletes a table a load made, its deletion protection (a
// template may set it) turned off first.
func deleteMade(ctx context.Context, eng engine, name string) error {
	_, err := eng.callJSON(ctx, apiDynamoDB, "DeleteTable", map[string]string{"TableName": name}, nil)
	var ae *apiError
	if !errors.As(err, &ae) || !strings.Contains(strings.ToLower(ae.Message), "deletion protection") {
		return err
	}
	if _, err := eng.callJSON(ctx, apiDynamoDB, "UpdateTable", map[string]any{"TableName": name, "DeletionProtectionEnabled": false}, nil); err != nil {
		return err
	}
	if err := waitActive(ctx, eng, map[string]any{"TableName": name}); err != nil {
		return err
	}
	_, err = eng.callJSON(ctx, apiDynamoDB, "DeleteTable", map[string]string{"TableName": name}, nil)
	return err
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
