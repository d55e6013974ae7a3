// Package iac reads DynamoDB tables out of infrastructure code: a
// CloudFormation or SAM template (YAML or JSON), the output of `cdk synth`
// (cdk.out/*.template.json, CloudFormation JSON), or a serverless.yml whose
// resources: section holds CloudFormation resources. Each
// AWS::DynamoDB::Table, AWS::DynamoDB::GlobalTable and SAM's
// AWS::Serverless::SimpleTable becomes the
// CreateTable input the template describes, with its TTL, point-in-time
// recovery and contributor insights settings and, for a global table, the
// replicas' regions; other resource types are skipped and listed. The
// input is typed (CreateTable, create.go), its JSON DynamoDB's; a table's
// properties, once resolved, are read into typed structures through
// encoding/json, their shape checked member by exact name first
// (decode, shape.go) so that what does not fit is named by its place.
//
// Intrinsic functions are resolved where they can be locally: Ref to a
// parameter (its Default), to a pseudo parameter (AWS::Region and the
// like) or to a table (its name); Fn::Sub, Fn::Join, Fn::Select,
// Fn::Split, Fn::FindInMap; Fn::GetAtt of a table's Arn and StreamArn in
// Outputs, once the tables exist (Attr). Any other (Fn::If,
// Fn::ImportValue, a Ref to something unknown) is an error naming it, as
// is a table property the emulator cannot take exactly. serverless.yml's
// ${env:...}, ${self:...}, ${opt:stage|region}, ${sls:stage} and
// ${aws:region|accountId} variables are resolved first, where the tables
// are read and nowhere else (readServerless), with .env files under
// useDotenv (DotenvFile, ReadDotenv); ${file(...)}, ${ssm:...} and the other sources
// there are errors naming them. YAML is read with line and column in its
// errors, and aliases bounded (yaml.go).
//
// The property names and shapes followed are AWS's CloudFormation
// reference for AWS::DynamoDB::Table and AWS::DynamoDB::GlobalTable and
// serverless' variables reference; nothing is read from other projects.
package iac

import (
	"errors"
	"fmt"
	"sort"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// AccountID is the account the pseudo parameter AWS::AccountId and the
// ARNs of the emulator's tables name.
const AccountID = "000000000000"

// Options are what a template is read with.
type Options struct {
	// Region is AWS::Region; "" means a serverless.yml's provider.region,
	// else us-east-1.
	Region string
	// StackName is AWS::StackName; "" means "local".
	StackName string
	// Getenv reads serverless' ${env:NAME}; nil reads nothing.
	Getenv func(string) string
	// Parameters override parameters' Defaults by name.
	Parameters map[string]string
	// Dir is the directory the template is in: a serverless.yml with
	// useDotenv: true reads .env.STAGE there, or .env (DotenvFile), for
	// the ${env:...} that Getenv leaves unset. "": none is read.
	Dir string
}

// Table is one table of a template.
type Table struct {
	LogicalID string
	Name      string
	// Create is the CreateTable input.
	Create CreateTable
	// TTL is the UpdateTimeToLive input's TimeToLiveSpecification, or nil.
	TTL *shapes.TimeToLiveSpecification
	// PITR is UpdateContinuousBackups' PointInTimeRecoverySpecification,
	// or nil.
	PITR *shapes.PointInTimeRecoverySpecification
	// ContributorInsights is UpdateContributorInsights' action for the
	// table ("ENABLE"), or "".
	ContributorInsights string
	// Replicas are a global table's regions besides Options.Region.
	Replicas []string
}

// Template is what Read found.
type Template struct {
	Format  string // "cloudformation" or "serverless"
	Tables  []Table
	Skipped []string // "LogicalId (Type)" of the resources not read
	// Region is the region the template was read for: Options.Region, a
	// serverless.yml's provider.region, or us-east-1.
	Region string
	// Dotenv is the .env file a serverless.yml's useDotenv read, or "".
	Dotenv string
	// Unresolved are the outputs left out, each "Outputs.NAME: why".
	Unresolved []string
	outputs    map[string]any
	ctx        *resolver
}

// Sniff reports which kind of template src is, without reading it all:
// "cloudformation", "serverless" or "" (neither: for instance a NoSQL
// Workbench model).
func Sniff(src []byte) string {
	k, _ := Kind(src)
	return k
}

func kindOf(top map[string]any) string {
	switch {
	case top["Resources"] != nil || top["AWSTemplateFormatVersion"] != nil:
		return "cloudformation"
	case top["service"] != nil && (top["resources"] != nil || top["provider"] != nil):
		return "serverless"
	}
	return ""
}

// Read reads the tables of src.
func Read(src []byte, o Options) (*Template, error) {
	if o.StackName == "" {
		o.StackName = "local"
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	doc, err := parseYAML(src)
	if err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("empty template")
	}
	v, err := newBuilder(src).value(doc.Content[0], 0)
	if err != nil {
		return nil, err
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the template is not a mapping")
	}
	t := &Template{Format: kindOf(top)}
	switch t.Format {
	case "serverless":
		sls, err := readServerless(top, o)
		if err != nil {
			return nil, err
		}
		top, o = sls.cfn, sls.opts
		t.Dotenv, t.Unresolved = sls.dotenv, sls.dropped
	case "cloudformation":
	default:
		return nil, errors.New("neither a CloudFormation template (no Resources) nor a serverless.yml (no service and resources)")
	}
	if o.Region == "" {
		o.Region = "us-east-1"
	}
	t.Region = o.Region
	resources, ok := top["Resources"].(map[string]any)
	if !ok {
		return nil, errors.New("the template's Resources is not a mapping")
	}
	r := &resolver{opts: o, resources: resources, tableNames: map[string]string{}}
	if err := r.readParameters(top); err != nil {
		return nil, err
	}
	if m, ok := top["Mappings"].(map[string]any); ok {
		r.mappings = m
	}
	ids := make([]string, 0, len(resources))
	for id := range resources {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	// Names first: a table's properties may Ref another table.
	for _, id := range ids {
		res, _ := resources[id].(map[string]any)
		typ, _ := res["Type"].(string)
		if !isTableType(typ) {
			continue
		}
		name := id
		if props, ok := res["Properties"].(map[string]any); ok && props["TableName"] != nil {
			v, err := r.resolve(props["TableName"], "Resources."+id+".Properties.TableName")
			if err != nil {
				return nil, err
			}
			if name, ok = v.(string); !ok {
				return nil, fmt.Errorf("resource %s: Properties.TableName is not a string", id)
			}
		}
		r.tableNames[id] = name
	}
	for _, id := range ids {
		res, ok := resources[id].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("resource %s: not a mapping", id)
		}
		typ, _ := res["Type"].(string)
		if !isTableType(typ) {
			t.Skipped = append(t.Skipped, id+" ("+typ+")")
			continue
		}
		if c, ok := res["Condition"]; ok {
			return nil, fmt.Errorf("resource %s: Condition %v: conditions are not evaluated", id, c)
		}
		props, _ := res["Properties"].(map[string]any)
		tbl, err := r.table(id, typ, props)
		if err != nil {
			return nil, err
		}
		t.Tables = append(t.Tables, tbl)
	}
	t.outputs, _ = top["Outputs"].(map[string]any)
	t.ctx = r
	return t, nil
}

// Outputs resolves the template's Outputs once its tables exist: attr
// answers Fn::GetAtt of a table (its logical id and the attribute, Arn or
// StreamArn). Each output's Value, by name; an output that cannot be
// resolved is left out, and why is in unresolved ("Outputs.NAME...: why"),
// after those Read left out.
func (t *Template) Outputs(attr func(logicalID, name string) (string, error)) (out map[string]string, unresolved []string) {
	out = map[string]string{}
	unresolved = append(unresolved, t.Unresolved...)
	t.ctx.attr = attr
	defer func() { t.ctx.attr = nil }()
	names := make([]string, 0, len(t.outputs))
	for name := range t.outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		om, ok := t.outputs[name].(map[string]any)
		if !ok {
			continue
		}
		if _, ok := om["Condition"]; ok {
			continue
		}
		v, err := t.ctx.resolve(om["Value"], "Outputs."+name+".Value")
		if err != nil {
			unresolved = append(unresolved, err.Error())
			continue
		}
		out[name] = fmt.Sprint(v)
	}
	return out, unresolved
}
