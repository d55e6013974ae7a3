"""A small shop on DynamoDB: orders, stock and counters, written with boto3."""
