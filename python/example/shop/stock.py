"""Stock: reserved for an order all at once, in one transaction."""

from . import aws


class OutOfStock(Exception):
    """A line asks for more than there is."""


def reserve(lines, client=None):
    """Take each line's qty from its sku's stock, all or none (TransactWriteItems)."""
    client = client or aws.client()
    items = [{
        "Update": {
            "TableName": "inventory",
            "Key": {"sku": {"S": line["sku"]}},
            "UpdateExpression": "SET stock = stock - :q",
            "ConditionExpression": "stock >= :q",
            "ExpressionAttributeValues": {":q": {"N": str(line["qty"])}},
        }
    } for line in lines]
    try:
        client.transact_write_items(TransactItems=items)
    except client.exceptions.TransactionCanceledException as err:
        short = [line["sku"] for line, r in zip(lines, err.response.get("CancellationReasons", []))
                 if r.get("Code") == "ConditionalCheckFailed"]
        raise OutOfStock(", ".join(short)) from None


def level(sku, client=None):
    """The stock of a sku (0 for one not sold)."""
    client = client or aws.client()
    item = client.get_item(TableName="inventory", Key={"sku": {"S": sku}}, ConsistentRead=True).get("Item")
    return int(item["stock"]["N"]) if item else 0
