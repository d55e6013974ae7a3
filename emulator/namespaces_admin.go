package emulator

// The namespaces that hold data, for the console's namespace switch
// (served by adminhttp's namespaces.go, routed by admin.go): an
// application that signs with another access key or region than the one
// the console uses keeps its tables in another namespace, which the
// console lists instead of showing "no tables".
//
//	GET /dynamoemu/namespaces   {"sharedDb":false,"namespaces":[{"namespace":"AKID/us-east-1",
//	                            "accessKey":"AKID","region":"us-east-1","tables":2,"items":10}]}
//
//	GET /dynamoemu/tables?namespace=AKID/us-east-1[&start=NAME][&limit=N]
//	                            {"tables":[TableDescription...],"lastEvaluatedTableName":"NAME"}
//
// Namespaces that hold no table are left out. The tables endpoint gives
// a page of a namespace's tables (limit 1 to 100, default 100, in name
// order after start) described as DescribeTable describes them, so the
// console's table list costs one request a page, not one per table;
// "shared" names the namespace of -sharedDb. Behind the admin guard, as
// the other admin endpoints (httpedge/adminguard.go); a GET changes nothing.
