"""Counters: named, atomic, made at first use."""

from . import aws


def next_value(name, table=None):
    """Add one to counter name and return the new value (1 the first time)."""
    table = table or aws.table("counters")
    out = table.update_item(Key={"name": name}, UpdateExpression="ADD #v :one",
                            ExpressionAttributeNames={"#v": "value"},
                            ExpressionAttributeValues={":one": 1}, ReturnValues="UPDATED_NEW")
    return int(out["Attributes"]["value"])


def peek(name, table=None):
    """The counter's value, 0 if never counted."""
    table = table or aws.table("counters")
    item = table.get_item(Key={"name": name}, ConsistentRead=True).get("Item")
    return int(item["value"]) if item else 0
