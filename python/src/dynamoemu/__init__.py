"""dynamoemu: a DynamoDB-compatible emulator for tests and local development.

The package holds the server binary for its platform and starts it::

    import boto3, dynamoemu

    with dynamoemu.start() as emu:
        client = boto3.client("dynamodb", endpoint_url=emu.endpoint, region_name=emu.region,
                              aws_access_key_id="test", aws_secret_access_key="test")
        client.list_tables()

Its pytest plugin (``dynamoemu.pytest_plugin``, loaded by pytest on its own)
gives the fixtures ``dynamodb``, ``dynamodb_resource`` and
``dynamoemu_endpoint``: one server for the session, and each test in a
branch of the seeded tables of its own.
"""

from ._server import BINARY_ENV, Branch, DynamoemuError, Server, connect, find_binary, start

__all__ = ["BINARY_ENV", "Branch", "DynamoemuError", "Server", "connect", "find_binary", "start", "__version__"]

#: The package's version, which its server's ``-version`` also says.
__version__ = "0.0.0"
