// Package contributorinsights is Contributor Insights' operations, a
// table-level feature behind the service core's seam (service.Use):
// UpdateContributorInsights, DescribeContributorInsights and
// ListContributorInsights. The rules and their counters are the
// namespace's insights recorder (package insights), which the core
// keeps because the request pipeline records every data-plane request
// in it and a table's deletion forgets its rules: this package sets and
// reads the rules through service.Space.Insights and keeps them on disk
// with Space.SaveContributorInsights, where they always were.
package contributorinsights
