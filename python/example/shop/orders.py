"""Orders: placed, read, listed by customer and by status, and moved on."""

from boto3.dynamodb.conditions import Key


class OrderExists(Exception):
    """An order with that id is there already."""


class BadTransition(Exception):
    """The order is not in the status the change needs."""


def place(table, customer, order_id, lines):
    """Put a new order (status "new"); OrderExists if the id is taken."""
    total = sum(line["qty"] * line["price"] for line in lines)
    item = {"pk": f"customer#{customer}", "sk": f"order#{order_id}", "status": "new",
            "total": total, "lines": [{"sku": l["sku"], "qty": l["qty"]} for l in lines]}
    try:
        table.put_item(Item=item, ConditionExpression="attribute_not_exists(pk)")
    except table.meta.client.exceptions.ConditionalCheckFailedException:
        raise OrderExists(order_id) from None
    return item


def get(table, customer, order_id):
    """The order, or None."""
    return table.get_item(Key={"pk": f"customer#{customer}", "sk": f"order#{order_id}"}).get("Item")


def of_customer(table, customer):
    """The customer's orders, oldest id first."""
    out = []
    kwargs = {"KeyConditionExpression": Key("pk").eq(f"customer#{customer}") & Key("sk").begins_with("order#")}
    while True:
        page = table.query(**kwargs)
        out += page["Items"]
        if "LastEvaluatedKey" not in page:
            return out
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def with_status(table, status):
    """Every order in a status, from the byStatus index."""
    return table.query(IndexName="byStatus", KeyConditionExpression=Key("status").eq(status))["Items"]


def move(table, customer, order_id, from_status, to_status):
    """Change an order's status if it is in from_status; BadTransition if not."""
    try:
        return table.update_item(
            Key={"pk": f"customer#{customer}", "sk": f"order#{order_id}"},
            UpdateExpression="SET #s = :to",
            ConditionExpression="#s = :from",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={":to": to_status, ":from": from_status},
            ReturnValues="ALL_NEW",
        )["Attributes"]
    except table.meta.client.exceptions.ConditionalCheckFailedException:
        raise BadTransition(f"{order_id} is not {from_status}") from None
