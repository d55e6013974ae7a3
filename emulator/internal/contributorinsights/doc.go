// Package contributorinsights is Contributor Insights' operations, a
// table-level feature behind the service core's seam (service.Config.Features):
// UpdateContributorInsights, DescribeContributorInsights and
// ListContributorInsights. The rules and their counters are the
// namespace's insights recorder (package insights), which the report's
// stage keeps (emulator/internal/stages/insights), because the request
// pipeline records every data-plane request in it and a table's or
// GSI's deletion forgets its rules: this package sets and reads the
// rules through the stage's RecorderOf and Existing, and keeps them on
// disk with its SaveContributorInsights, where they always were.
package contributorinsights
