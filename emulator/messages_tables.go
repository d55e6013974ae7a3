package emulator

// Error message text of the control-plane operations, as AWS words it.
// Where DynamoDB Local words a message differently, AWS wins and the
// constant's comment gives DynamoDB Local's text.

const (
	// msgResourceNotFound is the data-plane message for a missing table.
	// DynamoDB Local: "Cannot do operations on a non-existent table".
	msgResourceNotFound = "Requested resource not found"
)

// validateTableNameParam checks a TableName parameter that names an
// existing table (a table name or, since 2024, a table ARN).
func validateTableNameParam(name string) error {
	if name == "" {
		return errValidation("The parameter 'TableName' is required but was not present in the request")
	}
	return nil
}
