package conformance

import "fmt"

// A run names its target in its log and its report: the in-process
// emulator, DynamoDB Local, AWS, or any endpoint DYNAMODB_ENDPOINT gives.
func ExampleTarget_Name() {
	for _, t := range []Target{
		{URL: "http://localhost:8000", Oracle: OracleDynamoDBLocal},
		{Oracle: OracleAWS},
		{URL: "http://my-endpoint:4566"},
	} {
		fmt.Println(t.Name(), t.FakeCredentials())
	}
	// Output:
	// DynamoDB Local at http://localhost:8000 true
	// AWS DynamoDB (default endpoint) false
	// endpoint http://my-endpoint:4566 true
}
