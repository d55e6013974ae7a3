package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The guide's order / order-item pattern against the emulator with the
// conventions enforced, then one violation of each kind refused.
func Example_conventions() {
	// Command and data tables of every module follow the conventions (the
	// JSON is what dynamoemu -conventions FILE reads).
	cfg, _ := conventions.ParseConfig([]byte(`{"tables": [
		{"match": "*-command", "role": "command"},
		{"match": "*-data", "role": "data"}]}`))
	emu, _ := emulator.New(emulator.Options{Conventions: &cfg, SharedDB: true})
	srv := httptest.NewServer(emu.Handler())
	defer srv.Close()

	ctx := context.Background()
	client := func(opts ...func(*dynamodb.Options)) *dynamodb.Client {
		return dynamodb.New(dynamodb.Options{
			Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
			Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
		}, opts...)
	}
	db := client()
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	num := func(v int) types.AttributeValue { return &types.AttributeValueMemberN{Value: strconv.Itoa(v)} }
	const command, data = "local-demo-order-command", "local-demo-order-data"
	for _, name := range []string{command, data} {
		in := &dynamodb.CreateTableInput{
			TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{
				{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		}
		if name == command { // new versions reach the data table through its stream (rule A11)
			in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}
		}
		_, _ = db.CreateTable(ctx, in)
	}

	// The keys of an order and its items: PK ORDER#tenant001, SKs
	// ORDER#<orderId> and ORDER_ITEM#<orderId>#<itemId>.
	const orderID = "01HX7MBJK3V9WQBZ7XNDK5ZT2M"
	order, _ := conventions.Hierarchy("ORDER", "tenant001", "ORDER", orderID)
	item1, _ := conventions.Hierarchy("ORDER", "tenant001", "ORDER_ITEM", orderID, "001")
	item2, _ := conventions.Hierarchy("ORDER", "tenant001", "ORDER_ITEM", orderID, "002")

	// publish writes version v of an entity as the framework does: the
	// command row <sk>@<v> with its create guard, then the data row.
	commandRow := func(k conventions.Keys, v int) map[string]types.AttributeValue {
		sk, _ := conventions.VersionedSortKey(k.SK, v)
		return map[string]types.AttributeValue{"pk": str(k.PK), "sk": str(sk), "id": str(k.ID),
			"version": num(v), "tenantCode": str("tenant001")}
	}
	publish := func(k conventions.Keys, v int) error {
		row := commandRow(k, v)
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(command), Item: row,
			ConditionExpression: aws.String("attribute_not_exists(pk) AND attribute_not_exists(sk)")})
		if err != nil {
			return err
		}
		row["cpk"], row["csk"], row["sk"] = row["pk"], row["sk"], str(k.SK)
		_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(data), Item: row})
		return err
	}
	show := func(what string, err error) {
		var ae smithy.APIError
		if errors.As(err, &ae) {
			fmt.Printf("%s: %s: %s\n", what, ae.ErrorCode(), ae.ErrorMessage())
			return
		}
		fmt.Printf("%s: %v\n", what, err)
	}
	show("order v1", publish(order, 1))
	show("item 001 v1", publish(item1, 1))
	show("item 002 v1", publish(item2, 1))
	show("order v2", publish(order, 2))
	show("order v2 again", publish(order, 2)) // a concurrent publish lost

	out, _ := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(data),
		KeyConditionExpression: aws.String("pk = :pk and begins_with(sk, :sk)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(order.PK), ":sk": str("ORDER_ITEM#" + orderID + "#")}})
	fmt.Println("order items:", len(out.Items))

	// One violation of each kind, refused.
	put := func(c *dynamodb.Client, table string, item map[string]types.AttributeValue) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item,
			ConditionExpression: aws.String("attribute_not_exists(pk) AND attribute_not_exists(sk)")})
		return err
	}
	with := func(item map[string]types.AttributeValue, name string, v types.AttributeValue) map[string]types.AttributeValue {
		item[name] = v
		return item
	}
	show("key", put(db, command, with(commandRow(order, 1), "pk", str("ORDER"))))
	show("version", put(db, command, with(commandRow(order, 3), "sk", str(order.SK))))
	show("version attribute", put(db, command, with(commandRow(order, 3), "version", num(4))))
	show("id", put(db, command, with(commandRow(order, 3), "id", str(orderID))))
	show("data", put(db, data, with(commandRow(order, 3), "sk", str(order.SK+"@3"))))
	tenant002 := client(emulatortest.WithTenant("tenant002"))
	show("tenant", put(tenant002, command, commandRow(order, 3)))

	for _, tr := range emu.Reports().Conventions().Tables {
		fmt.Println(tr.Table, tr.Counts)
	}
	// Output:
	// order v1: <nil>
	// item 001 v1: <nil>
	// item 002 v1: <nil>
	// order v2: <nil>
	// order v2 again: ConditionalCheckFailedException: The conditional request failed
	// order items: 2
	// key: ValidationException: [conventions A2] command partition key "ORDER" has no tenant: want PREFIX#TENANT (item pk="ORDER" sk="ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M@1"; why: the guide's key structure; getTenantCode returns undefined or '' otherwise, and the framework's tenant lookups (TTL, master data) go astray)
	// version: ValidationException: [conventions A3] command sort key "ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M" has no @version suffix (item pk="ORDER#tenant001" sk="ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M"; why: publishAsync writes addSortKeyVersion(sk, version) and version together; getItem and getLatestItem probe exactly that key)
	// version attribute: ValidationException: [conventions A3] command item version 4 differs from its sort key's version 3 (item pk="ORDER#tenant001" sk="ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M@3"; why: publishAsync writes addSortKeyVersion(sk, version) and version together; getItem and getLatestItem probe exactly that key)
	// id: ValidationException: [conventions A7] id "01HX7MBJK3V9WQBZ7XNDK5ZT2M" is not generateId(pk, sk) = "ORDER#tenant001#ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M" (item pk="ORDER#tenant001" sk="ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M@3"; why: the framework copies id and merges read-your-writes results on it; a wrong id is a different entity)
	// data: ValidationException: [conventions A5] data sort key "ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M@3" contains '@': data rows carry no version (removeSortKeyVersion gives "ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M") (item pk="ORDER#tenant001" sk="ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M@3"; why: DataService.publish writes the unversioned sk, and cpk and csk on every version; csk is sk@version on the async path and the bare sk on publishSync (both framework versions); a master TTL setting without csk may have version 0, as the framework's e2e suite seeds them)
	// tenant: AccessDeniedException: [conventions B10] caller tenant "tenant002" may not use tenant "tenant001" (partition key "ORDER#tenant001") (item pk="ORDER#tenant001" sk="ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M@3"; why: opt-in: it checks only callers the configuration or an x-tenant-code header binds to a tenant)
	// local-demo-order-command map[A2:1 A3:2 A7:1 B10:1]
	// local-demo-order-data map[A5:1]
}
