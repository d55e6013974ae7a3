"""A boto3 session for the recorder's tests: items, conditions, pages,
batches, transactions, PartiQL and a few errors on tables named with the
prefix given as argv[1]; the endpoint is AWS_ENDPOINT_URL. It prints how
many calls it made."""
import sys

import boto3
from botocore.exceptions import ClientError

prefix = sys.argv[1]
db = boto3.client("dynamodb", region_name="us-east-1")
calls = 0


def call(op, expect_error=None, **kw):
    global calls
    calls += 1
    try:
        return getattr(db, op)(**kw)
    except ClientError as e:
        if expect_error and e.response["Error"]["Code"] == expect_error:
            return None
        raise


t = prefix + "items"
call("create_table", TableName=t, BillingMode="PAY_PER_REQUEST",
     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "g", "AttributeType": "S"}],
     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
     GlobalSecondaryIndexes=[{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "ALL"}}])
call("describe_table", TableName=t)
for i in range(60):
    call("put_item", TableName=t, ReturnConsumedCapacity="TOTAL",
         Item={"pk": {"S": "p%d" % (i % 6)}, "sk": {"N": str(i)}, "g": {"S": "g%d" % (i % 3)},
               "body": {"S": "x" * (i * 37 % 900)}, "tags": {"SS": ["a", "b%d" % i]}})
for i in range(40):
    call("get_item", TableName=t, Key={"pk": {"S": "p%d" % (i % 6)}, "sk": {"N": str(i)}},
         ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
for i in range(30):
    call("update_item", TableName=t, Key={"pk": {"S": "p%d" % (i % 6)}, "sk": {"N": str(i)}},
         UpdateExpression="ADD n :one SET #s = :s", ExpressionAttributeNames={"#s": "state"},
         ConditionExpression="attribute_exists(pk) AND sk < :lim",
         ExpressionAttributeValues={":one": {"N": "1"}, ":s": {"S": "seen"}, ":lim": {"N": "25"}},
         ReturnValues="ALL_NEW", ReturnConsumedCapacity="TOTAL",
         expect_error="ConditionalCheckFailedException")
for p in range(6):
    start = None
    while True:
        kw = dict(TableName=t, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p%d" % p}},
                  Limit=4, ReturnConsumedCapacity="TOTAL")
        if start:
            kw["ExclusiveStartKey"] = start
        page = call("query", **kw)
        start = page.get("LastEvaluatedKey")
        if not start:
            break
# Scan's order is the table's hash order, which AWS does not document:
# the session counts.
for i in range(3):
    call("scan", TableName=t, Select="COUNT", FilterExpression="attribute_exists(n)")
for g in range(3):
    call("query", TableName=t, IndexName="byg", KeyConditionExpression="g = :g",
         ExpressionAttributeValues={":g": {"S": "g%d" % g}}, Select="COUNT")
for b in range(4):
    call("batch_write_item", RequestItems={t: [{"PutRequest": {"Item": {"pk": {"S": "batch"}, "sk": {"N": str(b * 10 + j)}}}}
                                              for j in range(10)]})
    call("batch_get_item", RequestItems={t: {"Keys": [{"pk": {"S": "batch"}, "sk": {"N": str(b * 10 + j)}} for j in range(10)],
                                             "ConsistentRead": True}})
for i in range(8):
    call("transact_write_items", ReturnConsumedCapacity="TOTAL", TransactItems=[
        {"Put": {"TableName": t, "Item": {"pk": {"S": "tx"}, "sk": {"N": str(i)}}}},
        {"Update": {"TableName": t, "Key": {"pk": {"S": "p0"}, "sk": {"N": "0"}}, "UpdateExpression": "ADD tx :one",
                    "ExpressionAttributeValues": {":one": {"N": "1"}}}},
        {"ConditionCheck": {"TableName": t, "Key": {"pk": {"S": "p1"}, "sk": {"N": "1"}},
                            "ConditionExpression": "attribute_exists(pk)"}},
    ])
    call("transact_get_items", TransactItems=[{"Get": {"TableName": t, "Key": {"pk": {"S": "tx"}, "sk": {"N": str(i)}}}}])
call("transact_write_items", expect_error="TransactionCanceledException", TransactItems=[
    {"Put": {"TableName": t, "Item": {"pk": {"S": "tx"}, "sk": {"N": "100"}}}},
    {"ConditionCheck": {"TableName": t, "Key": {"pk": {"S": "nope"}, "sk": {"N": "1"}},
                        "ConditionExpression": "attribute_exists(pk)"}},
])
for i in range(10):
    call("execute_statement", Statement='SELECT * FROM "%s" WHERE pk = ? AND sk = ?' % t,
         Parameters=[{"S": "p%d" % (i % 6)}, {"N": str(i)}])
call("execute_statement", Statement='INSERT INTO "%s" VALUE {\'pk\': \'ql\', \'sk\': 1}' % t)
call("execute_statement", Statement='UPDATE "%s" SET v = 2 WHERE pk = \'ql\' AND sk = 1' % t)
for i in range(6):
    call("delete_item", TableName=t, Key={"pk": {"S": "p%d" % i}, "sk": {"N": str(50 + i)}},
         ReturnValues="ALL_OLD", ReturnConsumedCapacity="TOTAL")
call("get_item", TableName=t, Key={"pk": {"S": "nope"}}, expect_error="ValidationException")
call("put_item", TableName=prefix + "missing", Item={"pk": {"S": "x"}}, expect_error="ResourceNotFoundException")
call("delete_table", TableName=t)
print(calls)
