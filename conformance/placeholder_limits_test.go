package conformance

// The size limit of the placeholder maps: "The maximum length of all
// substitution variables in an expression is 2 MB. This is the sum of the
// lengths of all ExpressionAttributeNames and ExpressionAttributeValues"
// (AWS developer guide, Constraints). The messages and the order of the
// checks are DynamoDB Local's; AWS's wording is not published.

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

const (
	maxSubstitution     = 2 << 20
	msgNamesTooLarge    = "ExpressionAttributeNames exceeds max size"
	msgValuesTooLarge   = "ExpressionAttributeValues exceeds max size"
	msgCombinedTooLarge = "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size"
)

// tinyValues is n values :<letter>100000 ... of S "x": 9 bytes each as
// measured (key bytes plus value bytes), plus extra.
func tinyValues(letter string, n int, extra map[string]types.AttributeValue) map[string]types.AttributeValue {
	m := make(map[string]types.AttributeValue, n+len(extra))
	for i := range n {
		m[fmt.Sprintf(":%s%d", letter, 100000+i)] = s("x")
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// wideEntry is the bytes of a wide placeholder's value: a name well under
// an attribute name's 64 KB.
const wideEntry = 60000

// wideValues is values :<letter>100000 ... of S strings of wideEntry
// bytes, just over total bytes in all, plus extra. Where only the sum
// matters, a few wide entries cost the client and the server far less
// than a quarter of a million tiny ones.
func wideValues(letter string, total int, extra map[string]types.AttributeValue) map[string]types.AttributeValue {
	m := make(map[string]types.AttributeValue, total/wideEntry+1+len(extra))
	for i := range total/wideEntry + 1 {
		m[fmt.Sprintf(":%s%d", letter, 100000+i)] = s(strings.Repeat("x", wideEntry))
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// wideNames is names #<letter>100000 ... of wideEntry bytes, just over
// total bytes in all, plus extra.
func wideNames(letter string, total int, extra map[string]string) map[string]string {
	m := make(map[string]string, total/wideEntry+1+len(extra))
	for i := range total/wideEntry + 1 {
		m[fmt.Sprintf("#%s%d", letter, 100000+i)] = strings.Repeat("x", wideEntry)
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// skipUnlessHeavy skips a long run unless DYNAMOEMU_HEAVY_TESTS is set
// (CI sets it).
func skipUnlessHeavy(t *testing.T) {
	t.Helper()
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") == "" {
		t.Skip("a long run: set DYNAMOEMU_HEAVY_TESTS=1 (CI does)")
	}
}

// tinyNames is n names #<letter>100000 ... of "x", 9 bytes each, plus extra.
func tinyNames(letter string, n int, extra map[string]string) map[string]string {
	m := make(map[string]string, n+len(extra))
	for i := range n {
		m[fmt.Sprintf("#%s%d", letter, 100000+i)] = "x"
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestPlaceholderMapSize(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	key := item{"pk": s("k")}
	over := maxSubstitution/9 + 1 // tiny entries just over 2 MB
	update := func(expr string, names map[string]string, values map[string]types.AttributeValue) error {
		_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key,
			UpdateExpression: aws.String(expr), ExpressionAttributeNames: names, ExpressionAttributeValues: values})
		return err
	}
	scan := func(values map[string]types.AttributeValue) error {
		_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, FilterExpression: aws.String("a = :a"), ExpressionAttributeValues: values})
		return err
	}
	one := map[string]types.AttributeValue{":a": s("1")}
	withA := func(m map[string]types.AttributeValue) map[string]types.AttributeValue { m[":a"] = s("1"); return m }

	t.Run("boundary", func(t *testing.T) {
		// 233,016 names of 9 bytes and one of 8 make exactly 2 MB: the
		// next check is the unused names. One byte more is too much.
		get := func(last string) error {
			_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String("#n100000"),
				ExpressionAttributeNames: tinyNames("n", maxSubstitution/9, map[string]string{"#a12345": last})})
			return err
		}
		err := get("x")
		var ae smithy.APIError
		if !asErr(err, &ae) || ae.ErrorCode() != "ValidationException" ||
			!strings.HasPrefix(ae.ErrorMessage(), "Value provided in ExpressionAttributeNames unused in expressions: keys: {") {
			t.Errorf("at the limit: got %.200v, want the unused names", err)
		}
		requireValidation(t, get("xx"), msgNamesTooLarge)
		// Values are measured by DynamoDB's item size rules: a string's
		// bytes.
		requireValidation(t, scan(map[string]types.AttributeValue{":a": s(strings.Repeat("x", maxSubstitution-1))}), msgValuesTooLarge)
	})
	// Two more maps of 233,000 tiny entries: each takes the race-detector
	// run tens of seconds on a busy 2-core machine (this test took 310 s
	// of the package's 434 there), so they run with DYNAMOEMU_HEAVY_TESTS
	// (CI); the boundary above measures tiny names already.
	t.Run("many tiny values", func(t *testing.T) {
		skipUnlessHeavy(t)
		requireValidation(t, update("SET a = :a", nil, withA(tinyValues("v", over, nil))), msgValuesTooLarge)
	})
	t.Run("many tiny names", func(t *testing.T) {
		skipUnlessHeavy(t)
		requireValidation(t, update("SET a = :a", tinyNames("n", over, nil), one), msgNamesTooLarge)
	})
	// The order of the checks: the maps over the limit in a few wide
	// entries (the sum is what is measured, and DynamoDB Local answers
	// these as it does the tiny ones; a map of 233,000 tiny entries takes
	// the race-detector run tens of seconds on a busy 2-core machine).
	t.Run("each under, together over", func(t *testing.T) {
		requireValidation(t, update("SET a = :a", wideNames("n", maxSubstitution/2, nil), withA(wideValues("v", maxSubstitution/2, nil))), msgCombinedTooLarge)
	})
	t.Run("names first", func(t *testing.T) {
		requireValidation(t, update("SET a = :a", wideNames("n", maxSubstitution, nil), withA(wideValues("v", maxSubstitution, nil))), msgNamesTooLarge)
	})
	t.Run("bad key first", func(t *testing.T) {
		requireValidation(t, update("SET a = :a", nil, withA(wideValues("v", maxSubstitution, map[string]types.AttributeValue{"v": s("1")}))),
			`ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`)
	})
	t.Run("empty name first", func(t *testing.T) {
		requireValidation(t, update("SET a = :a", wideNames("n", maxSubstitution, map[string]string{"#e": ""}), one),
			"ExpressionAttributeNames contains invalid value: Empty attribute name for key #e")
	})
	t.Run("bad value first", func(t *testing.T) {
		requireValidation(t, update("SET a = :a", nil, withA(wideValues("v", maxSubstitution, map[string]types.AttributeValue{":z": &types.AttributeValueMemberNULL{Value: false}}))),
			"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Null attribute value types must have the value of true for key :z")
	})
	t.Run("before the expression is parsed", func(t *testing.T) {
		requireValidation(t, update("SET a = = :a", nil, withA(wideValues("v", maxSubstitution, nil))), msgValuesTooLarge)
		requireValidation(t, update("SET a = :a"+strings.Repeat(" ", 5000), nil, withA(wideValues("v", maxSubstitution, nil))), msgValuesTooLarge)
	})
	t.Run("transaction action", func(t *testing.T) {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
			TableName: &table, Key: key, UpdateExpression: aws.String("SET a = :a"), ExpressionAttributeValues: withA(wideValues("v", maxSubstitution, nil)),
		}}}})
		requireValidation(t, err, msgValuesTooLarge)
	})
	t.Run("get names", func(t *testing.T) {
		_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, ProjectionExpression: aws.String("#n100000"),
			ExpressionAttributeNames: wideNames("n", maxSubstitution, nil)})
		requireValidation(t, err, msgNamesTooLarge)
	})
}
