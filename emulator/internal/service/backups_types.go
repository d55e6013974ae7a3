package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"

// RestoreSummary is DescribeTable's RestoreSummary, tablespec's. The
// restores' own shapes (RestoreOverrides, a backup's source
// description) are tablespec's, which the features import.
type RestoreSummary = tablespec.RestoreSummary
