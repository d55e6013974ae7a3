package service

// BillingModeSummary in DescribeTable (tableMeta.Billing.Reported): AWS
// reports it once a table has been on-demand, created PAY_PER_REQUEST or
// switched to it, and keeps it after a switch back to PROVISIONED. A table
// that has always been PROVISIONED has none, whether or not CreateTable
// named the mode: the API reference describes LastUpdateToPayPerRequestDateTime
// as "the time when PAY_PER_REQUEST was last set", AWS users report the
// summary missing on tables created without BillingMode
// (gravitational/teleport#29557) and on tables created with it explicitly
// PROVISIONED (crossplane-contrib/provider-aws#946), and present after a
// round trip through PAY_PER_REQUEST (awslabs/emr-dynamodb-connector#89).
// DynamoDB Local omits it on PROVISIONED tables as well.
