package insights

import (
	"encoding/json"

	"github.com/dynamoemu/dynamoemu/internal/iac"
)

// A CloudFormation or SAM template, `cdk synth`'s output or a
// serverless.yml as a design: its tables (internal/iac reads them as
// -load does) with their keys and indexes. Infrastructure code says
// nothing of entities or access patterns, so the patterns are taken from
// the traffic (FromTraffic, design_traffic.go) and the report says so.

// Template formats (Design.Format), as internal/iac names them.
const (
	FormatCloudFormation = "cloudformation"
	FormatServerless     = "serverless"
)

// isTemplate reports whether src is a template internal/iac reads.
func isTemplate(src []byte) bool { return iac.Sniff(src) != "" }

// parseTemplateDesign reads a template's tables as a design.
func parseTemplateDesign(src []byte) (*Design, error) {
	format := iac.Sniff(src)
	tpl, err := iac.Read(src, iac.Options{})
	if err != nil {
		return nil, &DesignError{Format: format, Msg: err.Error()}
	}
	d := &Design{Format: tpl.Format}
	for _, tb := range tpl.Tables {
		raw, err := json.Marshal(tb.Create)
		if err != nil {
			return nil, &DesignError{Format: d.Format, Field: "Resources." + tb.LogicalID, Msg: err.Error()}
		}
		o, err := members(raw, d.Format, "Resources."+tb.LogicalID+".Properties")
		if err != nil {
			return nil, err
		}
		t, err := readCreateTable(o)
		if err != nil {
			return nil, err
		}
		if d.table(t.Name) != nil {
			return nil, o.errf("TableName", "table %q twice", t.Name)
		}
		t.FromTraffic = true
		d.Tables = append(d.Tables, t)
	}
	if len(d.Tables) == 0 {
		return nil, &DesignError{Format: d.Format, Msg: "the template declares no DynamoDB table"}
	}
	return d, nil
}
