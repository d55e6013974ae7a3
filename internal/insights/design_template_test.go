package insights

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTemplateDesigns: internal/iac's templates (CloudFormation, SAM,
// cdk synth, a global table, serverless.yml) are designs of their tables,
// each with its key and indexes and its patterns to be taken from the
// traffic.
func TestTemplateDesigns(t *testing.T) {
	files, err := filepath.Glob("../iac/testdata/*.*")
	require.NoError(t, err)
	more, err := filepath.Glob("../iac/testdata/cdk-synth/*.json")
	require.NoError(t, err)
	files = append(files, more...)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			d, err := ParseDesign(src)
			require.NoError(t, err)
			require.Contains(t, []string{FormatCloudFormation, FormatServerless}, d.Format)
			require.NotEmpty(t, d.Tables)
			for _, tb := range d.Tables {
				require.NotEmpty(t, tb.Key.Partition, tb.Name)
				require.True(t, tb.FromTraffic, tb.Name)
				require.Empty(t, tb.Patterns, tb.Name)
			}
		})
	}
}
