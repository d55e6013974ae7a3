"""The shop's boto3 objects, made from the environment.

boto3 1.28 and later read AWS_ENDPOINT_URL_DYNAMODB themselves; it is
passed here too so that older ones (Debian's 1.26) reach the emulator.
"""

import os

import boto3


def client():
    """A DynamoDB client for the environment's account and endpoint."""
    return boto3.client("dynamodb", endpoint_url=os.environ.get("AWS_ENDPOINT_URL_DYNAMODB"))


def table(name):
    """A Table resource for the environment's account and endpoint."""
    return boto3.resource("dynamodb", endpoint_url=os.environ.get("AWS_ENDPOINT_URL_DYNAMODB")).Table(name)
