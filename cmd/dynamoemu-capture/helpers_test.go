package main

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func createInput(name string) *dynamodb.CreateTableInput {
	return &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	}
}

func deleteInput(name string) *dynamodb.DeleteTableInput {
	return &dynamodb.DeleteTableInput{TableName: aws.String(name)}
}

func batchGet(tables ...string) *dynamodb.BatchGetItemInput {
	in := &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{}}
	for _, tn := range tables {
		in.RequestItems[tn] = types.KeysAndAttributes{Keys: []map[string]types.AttributeValue{{"pk": s("a")}}}
	}
	return in
}

func statement(st string) *dynamodb.ExecuteStatementInput {
	return &dynamodb.ExecuteStatementInput{Statement: aws.String(st)}
}

func tagsOf(arn string) *dynamodb.ListTagsOfResourceInput {
	return &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)}
}
