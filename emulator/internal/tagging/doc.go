// Package tagging is the tagging operations of DynamoDB, a table-level
// feature behind the service core's seam (service.Config.Features): TagResource,
// UntagResource and ListTagsOfResource, which address a table by its
// ARN. The tags themselves are part of the table's definition, which
// the core keeps (CreateTable's Tags, the conventions policy and the
// throttling a tag chooses): this package reads them with
// service.Table.Tags and changes them with Table.ChangeTags, so they are
// recorded where they always were.
package tagging
