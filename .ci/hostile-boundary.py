#!/usr/bin/env python3
"""Hostile tries at the tenant boundary, from outside, with boto3 and the AWS CLI.

Builds the server, starts it with -conventions (a callers map binding keys to
tenants) and tries every way around the tenant guard a caller bound to
tenant002 might take to tenant001's rows of a table that opts in by its tags:
each must be refused, and an unbound key must still succeed. Then starts it
with -credentials and -iamPolicies and tries a fault rule naming no table by
an identity denied dynamoemu:PutFaults on the table. Prints one line a try;
exits 1 when one answered otherwise.
Usage: python3 .ci/hostile-boundary.py   (needs go, boto3, and aws on PATH)
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import boto3
import botocore.auth
import botocore.awsrequest
import botocore.credentials
from botocore.config import Config
from botocore.exceptions import ClientError

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
HOSTILE, OWNER, ADMIN, UNBOUND = "AKIDTENANTTWO", "AKIDTENANTONE", "AKIDADMIN", "AKIDUNBOUND"
TABLE = "orders"
failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    if not ok:
        failures.append(name)


def refused(name, fn, want="AccessDenied"):
    """fn must raise a ClientError whose code names want."""
    try:
        fn()
    except ClientError as e:
        code = e.response.get("Error", {}).get("Code", "")
        check(name, want in code, code + " " + str(e))
        return
    check(name, False, "answered without an error")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start(binary, work, *args):
    port = free_port()
    log = open(os.path.join(work, "server-%d.log" % port), "w")
    proc = subprocess.Popen([binary, "-port", str(port), *args], stdout=log, stderr=log)
    for _ in range(200):
        if subprocess.run([binary, "-healthcheck", "-port", str(port)], capture_output=True).returncode == 0:
            return proc, "http://127.0.0.1:%d" % port
        time.sleep(0.05)
    proc.kill()
    sys.exit("hostile-boundary: the server did not start")


def client(url, key, service="dynamodb", secret="fake"):
    return boto3.client(service, endpoint_url=url, region_name="us-east-1", aws_access_key_id=key,
                        aws_secret_access_key=secret, config=Config(retries={"max_attempts": 1}))


def admin(url, method, path, body, key, secret="fake", headers=None):
    """An admin endpoint's call signed with key (and headers); returns (status, body)."""
    data = json.dumps(body).encode()
    req = botocore.awsrequest.AWSRequest(method=method, url=url + path, data=data,
                                         headers=dict({"Content-Type": "application/json"}, **(headers or {})))
    botocore.auth.SigV4Auth(botocore.credentials.Credentials(key, secret), "dynamodb", "us-east-1").add_auth(req)
    r = urllib.request.Request(url + path, data=data, method=method, headers=dict(req.headers))
    try:
        with urllib.request.urlopen(r) as res:
            return res.status, res.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def api(url, op, body, key):
    """A DynamoDB operation boto3 does not know yet (the bulk operations), signed with key."""
    return admin(url, "POST", "/", body, key, headers={"Content-Type": "application/x-amz-json-1.0",
                                                       "X-Amz-Target": "DynamoDB_20120810." + op})


def tenant_client(url, key, tenant):
    """A boto3 client with key whose every request carries x-tenant-code: tenant (the framework's header)."""
    c = client(url, key)
    c.meta.events.register("before-sign.dynamodb.*", lambda request, **kw: request.headers.__setitem__("x-tenant-code", tenant))
    return c


def cli(url, key, *args):
    env = dict(os.environ, AWS_ACCESS_KEY_ID=key, AWS_SECRET_ACCESS_KEY="fake", AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="")
    return subprocess.run(["aws", "--endpoint-url", url, "--output", "json", "dynamodb", *args], env=env, capture_output=True, text=True)


def row(pk, sk):
    return {"pk": {"S": pk}, "sk": {"S": sk}, "secret": {"S": "private of " + pk}}


def conventions_tries(binary, work):
    conf = os.path.join(work, "conventions.json")
    with open(conf, "w") as f:
        json.dump({"tables": [{"match": "*-command", "role": "command"}], "commonTenants": ["common"],
                   "callers": {HOSTILE: "tenant002", OWNER: "tenant001"}, "crossTenant": [ADMIN]}, f)
    s3 = os.path.join(work, "s3")
    for bucket in ("in", "out"):
        os.makedirs(os.path.join(s3, bucket))
    with open(os.path.join(s3, "in", "rows.json"), "w") as f:
        f.write(json.dumps({"Item": row("ORDER#tenant002", "ORDER#9@1")}) + "\n")
    proc, url = start(binary, work, "-sharedDb", "-conventions", conf, "-exportDir", s3)
    try:
        run_conventions(url)
        made_tries(url)
        header_tries(url)
    finally:
        proc.kill()
        proc.wait()


def run_conventions(url):
    adm, unb, bad = client(url, ADMIN), client(url, UNBOUND), client(url, HOSTILE)
    unb.create_table(TableName=TABLE, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    for pk in ("ORDER#tenant001", "ORDER#tenant002"):
        unb.put_item(TableName=TABLE, Item=row(pk, "ORDER#1@1"))
    unb.update_continuous_backups(TableName=TABLE, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    status, body = admin(url, "POST", "/dynamoemu/snapshots", {}, UNBOUND)
    snap = json.loads(body)["id"]
    early_backup = unb.create_backup(TableName=TABLE, BackupName="before")["BackupDetails"]["BackupArn"]
    arn = unb.describe_table(TableName=TABLE)["Table"]["TableArn"]
    # The table opts in by its tags alone (no configuration entry matches "orders").
    unb.tag_resource(ResourceArn=arn, Tags=[{"Key": "dynamoemu:conventions", "Value": "command"}])
    backup = adm.create_backup(TableName=TABLE, BackupName="shared")["BackupDetails"]["BackupArn"]
    stream = unb.describe_table(TableName=TABLE)["Table"]["LatestStreamArn"]
    key1 = {"pk": {"S": "ORDER#tenant001"}, "sk": {"S": "ORDER#1@1"}}

    refused("backup of the shared table", lambda: bad.create_backup(TableName=TABLE, BackupName="mine"))
    refused("restore of its backup into a table that opts in to nothing",
            lambda: bad.restore_table_from_backup(TargetTableName="mine", BackupArn=backup))
    refused("restore of a backup taken before the table opted in",
            lambda: bad.restore_table_from_backup(TargetTableName="mine", BackupArn=early_backup))
    refused("point-in-time restore", lambda: bad.restore_table_to_point_in_time(
        SourceTableName=TABLE, TargetTableName="mine", UseLatestRestorableTime=True))
    refused("scan of the would-be copy", lambda: bad.scan(TableName="mine"), "ResourceNotFound")
    refused("DeleteTable", lambda: bad.delete_table(TableName=TABLE))
    refused("DeleteBackup of another's backup", lambda: bad.delete_backup(BackupArn=backup))
    refused("UpdateTable stream off", lambda: bad.update_table(TableName=TABLE, StreamSpecification={"StreamEnabled": False}))
    refused("UpdateTimeToLive", lambda: bad.update_time_to_live(
        TableName=TABLE, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"}))
    refused("UpdateContinuousBackups", lambda: bad.update_continuous_backups(
        TableName=TABLE, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False}))
    refused("TagResource", lambda: bad.tag_resource(ResourceArn=arn, Tags=[{"Key": "x", "Value": "y"}]))
    refused("UntagResource of the conventions tag", lambda: bad.untag_resource(ResourceArn=arn, TagKeys=["dynamoemu:conventions"]))
    refused("ExportTableToPointInTime", lambda: bad.export_table_to_point_in_time(TableArn=arn, S3Bucket="b"))
    refused("SELECT inside ExecuteTransaction", lambda: bad.execute_transaction(TransactStatements=[
        {"Statement": "SELECT * FROM \"%s\" WHERE pk = 'ORDER#tenant001' AND sk = 'ORDER#1@1'" % TABLE}]))
    refused("UPDATE inside ExecuteTransaction", lambda: bad.execute_transaction(TransactStatements=[
        {"Statement": "UPDATE \"%s\" SET secret = 'x' WHERE pk = 'ORDER#tenant001' AND sk = 'ORDER#1@1'" % TABLE}]))
    refused("SELECT in ExecuteStatement", lambda: bad.execute_statement(
        Statement="SELECT * FROM \"%s\" WHERE pk = 'ORDER#tenant001'" % TABLE))
    for verb in ("SELECT * FROM", "DELETE FROM"):
        out = bad.batch_execute_statement(Statements=[
            {"Statement": "%s \"%s\" WHERE pk = 'ORDER#tenant001' AND sk = 'ORDER#1@1'" % (verb, TABLE)}])
        codes = [r.get("Error", {}).get("Code") for r in out["Responses"]]
        check("BatchExecuteStatement " + verb.split()[0], codes == ["AccessDenied"], str(codes))
    refused("GetItem of another tenant's row", lambda: bad.get_item(TableName=TABLE, Key=key1))
    refused("PutItem under another tenant", lambda: bad.put_item(TableName=TABLE, Item=row("ORDER#tenant001", "ORDER#2@1")))
    refused("Scan", lambda: bad.scan(TableName=TABLE))
    refused("Query of another tenant's partition", lambda: bad.query(
        TableName=TABLE, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "ORDER#tenant001"}}))
    streams = client(url, HOSTILE, "dynamodbstreams")
    refused("DescribeStream of the table's stream", lambda: streams.describe_stream(StreamArn=stream))
    lam = client(url, HOSTILE, "lambda")
    refused("CreateEventSourceMapping with a filter on another tenant's prefix", lambda: lam.create_event_source_mapping(
        EventSourceArn=stream, FunctionName="mine", StartingPosition="TRIM_HORIZON",
        FilterCriteria={"Filters": [{"Pattern": json.dumps({"dynamodb": {"Keys": {"pk": {"S": [{"prefix": "ORDER#tenant001"}]}}}})}]}))
    status, body = admin(url, "POST", "/dynamoemu/snapshots/" + snap + "/restore", {}, HOSTILE)
    check("snapshot restore by the bound key", "AccessDeniedException" in body, "%d %s" % (status, body))
    status, body = admin(url, "PUT", "/dynamoemu/faults", {"seed": 1, "rules": [{"fault": "InternalServerError", "probability": 1}]}, HOSTILE)
    check("fault rule with no table by the bound key", "AccessDeniedException" in body, "%d %s" % (status, body))

    # A minted key: not in the callers map, so bound to no tenant; it keeps every right (as
    # on a server without -credentials any key does): the unbound control.
    got = client(url, "AKIDMINTED0001").get_item(TableName=TABLE, Key=key1)
    check("a minted (unbound) key reads", "Item" in got)
    # The owner's key reads its own row; the hostile key its own.
    check("the owner reads its row", "Item" in client(url, OWNER).get_item(TableName=TABLE, Key=key1))
    own = bad.query(TableName=TABLE, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "ORDER#tenant002"}})
    check("the bound key queries its own tenant", len(own["Items"]) == 1, str(own["Items"]))

    # The same through the AWS CLI.
    r = cli(url, HOSTILE, "restore-table-from-backup", "--target-table-name", "mine2", "--backup-arn", backup)
    check("aws CLI restore-table-from-backup by the bound key", r.returncode != 0 and "AccessDenied" in r.stderr, r.stderr + r.stdout)
    r = cli(url, HOSTILE, "delete-table", "--table-name", TABLE)
    check("aws CLI delete-table by the bound key", r.returncode != 0 and "AccessDenied" in r.stderr, r.stderr + r.stdout)
    r = cli(url, HOSTILE, "execute-transaction", "--transact-statements",
            json.dumps([{"Statement": "SELECT * FROM \"%s\" WHERE pk = 'ORDER#tenant001' AND sk = 'ORDER#1@1'" % TABLE}]))
    check("aws CLI execute-transaction SELECT by the bound key", r.returncode != 0 and "AccessDenied" in r.stderr, r.stderr + r.stdout)
    r = cli(url, UNBOUND, "restore-table-from-backup", "--target-table-name", "copy-unbound", "--backup-arn", backup)
    check("aws CLI restore by an unbound key", r.returncode == 0, r.stderr)

    # The unbound key keeps its rights: restore and scan a copy, every tenant's rows.
    unb.restore_table_from_backup(TargetTableName="copy-pitr", BackupArn=early_backup)
    check("an unbound key scans a restored copy", len(unb.scan(TableName="copy-pitr")["Items"]) == 2)

    # Restoring a snapshot taken before the table opted in (as the operator): judged against
    # the tags it has now, and they stay.
    status, body = admin(url, "POST", "/dynamoemu/snapshots/" + snap + "/restore", {}, UNBOUND)
    tags = [t["Key"] for t in unb.list_tags_of_resource(ResourceArn=arn)["Tags"]]
    check("a snapshot from before the opt-in keeps the table's conventions tag",
          "dynamoemu:conventions" in tags, "%d %s; tags %s" % (status, body, tags))
    refused("Scan after the snapshot restore", lambda: bad.scan(TableName=TABLE))

    # A table deleted that opted in by its tags alone: its backup is still refused.
    unb.delete_table(TableName=TABLE)
    refused("restore of a deleted tags-only table's backup", lambda: bad.restore_table_from_backup(
        TargetTableName="mine3", BackupArn=backup))


KEYS = {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]}


def made_tries(url):
    """Making a table the configuration opts in (a shared table: "*-command"), importing into one,
    and cancelling a bulk operation on one are whole-table writes: refused to the bound key, not
    to an unbound one."""
    unb, bad = client(url, UNBOUND), client(url, HOSTILE)
    unb.create_table(TableName="bulk-command", BillingMode="PAY_PER_REQUEST", **KEYS)
    refused("CreateTable of a table the configuration opts in", lambda: bad.create_table(
        TableName="shared-command", BillingMode="PAY_PER_REQUEST", **KEYS))
    refused("ImportTable into a table the configuration opts in", lambda: bad.import_table(
        S3BucketSource={"S3Bucket": "in", "S3KeyPrefix": "rows.json"}, InputFormat="DYNAMODB_JSON",
        TableCreationParameters=dict(TableName="imported-command", BillingMode="PAY_PER_REQUEST", **KEYS)))
    refused("the refused import made no table", lambda: unb.describe_table(TableName="imported-command"), "ResourceNotFound")
    r = cli(url, HOSTILE, "create-table", "--table-name", "shared2-command", "--billing-mode", "PAY_PER_REQUEST",
            "--attribute-definitions", json.dumps(KEYS["AttributeDefinitions"]), "--key-schema", json.dumps(KEYS["KeySchema"]))
    check("aws CLI create-table of a table the configuration opts in by the bound key",
          r.returncode != 0 and "AccessDenied" in r.stderr and "may not make table" in r.stderr, r.stderr + r.stdout)
    r = cli(url, HOSTILE, "import-table", "--s3-bucket-source", "S3Bucket=in,S3KeyPrefix=rows.json", "--input-format", "DYNAMODB_JSON",
            "--table-creation-parameters", json.dumps(dict(TableName="imported2-command", BillingMode="PAY_PER_REQUEST", **KEYS)))
    check("aws CLI import-table into a table the configuration opts in by the bound key",
          r.returncode != 0 and "AccessDenied" in r.stderr and "may not make table" in r.stderr, r.stderr + r.stdout)
    status, body = api(url, "StartBulkPutItems", {"TableName": "bulk-command",
                                                  "InputS3Configuration": {"InputFormat": "DYNAMODB_JSON", "S3Bucket": "in", "S3KeyPrefix": "rows.json"},
                                                  "OutputS3Configuration": {"OutputType": ["ERROR"], "S3Bucket": "out"}}, UNBOUND)
    check("StartBulkPutItems by an unbound key", status == 200, "%d %s" % (status, body))
    bulk = json.loads(body).get("BulkOperationDescription", {}).get("BulkOperationArn", "") if status == 200 else ""
    status, body = api(url, "CancelBulkOperation", {"BulkOperationArn": bulk}, HOSTILE)
    check("CancelBulkOperation of a bulk operation on a shared table by the bound key",
          status == 400 and "AccessDeniedException" in body and "B10" in body, "%d %s" % (status, body))
    status, body = api(url, "CancelBulkOperation", {"BulkOperationArn": bulk}, UNBOUND)
    check("CancelBulkOperation by an unbound key is not refused", "AccessDenied" not in body, "%d %s" % (status, body))
    unb.create_table(TableName="plain", BillingMode="PAY_PER_REQUEST", **KEYS)
    plain = unb.create_backup(TableName="plain", BackupName="plain")["BackupDetails"]["BackupArn"]
    refused("restore of a backup of a table that opts in to nothing into a table the configuration opts in",
            lambda: bad.restore_table_from_backup(TargetTableName="restored-command", BackupArn=plain))
    check("the bound key restores into a table that opts in to nothing",
          bad.restore_table_from_backup(TargetTableName="restored-plain", BackupArn=plain)["TableDescription"]["TableName"] == "restored-plain")
    unb.create_table(TableName="unbound-command", BillingMode="PAY_PER_REQUEST", **KEYS)
    check("an unbound key makes a table the configuration opts in",
          unb.describe_table(TableName="unbound-command")["Table"]["TableName"] == "unbound-command")


def header_tries(url):
    """The framework's x-tenant-code header binds a caller its key does not, and never widens one."""
    key1 = {"pk": {"S": "ORDER#tenant001"}, "sk": {"S": "ORDER#1@1"}}
    table = "hdr-command"
    unb = client(url, UNBOUND)
    unb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST", **KEYS)
    unb.put_item(TableName=table, Item=dict(row("ORDER#tenant001", "ORDER#1@1"), version={"N": "1"}),
                 ConditionExpression="attribute_not_exists(pk) AND attribute_not_exists(sk)")

    def refused_as(name, fn, tenant):
        try:
            fn()
        except ClientError as e:
            msg = e.response.get("Error", {}).get("Message", "")
            check(name, e.response["Error"]["Code"] == "AccessDeniedException" and 'caller tenant "%s"' % tenant in msg, msg)
            return
        check(name, False, "answered without an error")
    refused_as("an unbound key with x-tenant-code tenant002 reads tenant001's row",
               lambda: tenant_client(url, UNBOUND, "tenant002").get_item(TableName=table, Key=key1), "tenant002")
    refused_as("the bound key with x-tenant-code tenant001 reads tenant001's row",
               lambda: tenant_client(url, HOSTILE, "tenant001").get_item(TableName=table, Key=key1), "tenant002")
    refused_as("the bound key with x-tenant-code tenant001 backs the table up",
               lambda: tenant_client(url, HOSTILE, "tenant001").create_backup(TableName=table, BackupName="hdr"), "tenant002")
    status, body = admin(url, "PUT", "/dynamoemu/faults", {"rules": [{"table": table, "fault": "InternalServerError", "probability": 0}]},
                         UNBOUND, headers={"x-tenant-code": "tenant002"})
    check("an unbound key with x-tenant-code tenant002 installs a fault rule on the table",
          status == 400 and "AccessDeniedException" in body and "B10" in body, "%d %s" % (status, body))
    got = tenant_client(url, UNBOUND, "tenant001").get_item(TableName=table, Key=key1)
    check("an unbound key with x-tenant-code tenant001 reads its tenant's row", "Item" in got)
    got = tenant_client(url, ADMIN, "tenant002").get_item(TableName=table, Key=key1)
    check("a cross-tenant key with x-tenant-code tenant002 reads every tenant's row", "Item" in got)


def iam_tries(binary, work):
    creds, iam = os.path.join(work, "credentials.json"), os.path.join(work, "iam.json")
    with open(creds, "w") as f:
        json.dump({"credentials": [{"accessKeyId": "ROOTKEY0000001", "secretAccessKey": "s", "namespace": "a"},
                                   {"accessKeyId": "DENIEDKEY00001", "secretAccessKey": "s", "namespace": "a"}]}, f)
    with open(iam, "w") as f:
        json.dump({"identities": [{"accessKeyId": "DENIEDKEY00001", "arn": "arn:aws:iam::000000000000:user/ci",
                                   "policies": [{"Version": "2012-10-17", "Statement": [
                                       {"Effect": "Allow", "Action": "dynamoemu:PutFaults", "Resource": "arn:aws:dynamodb:*:*:table/other"}]}]}]}, f)
    proc, url = start(binary, work, "-credentials", creds, "-iamPolicies", iam)
    try:
        status, body = admin(url, "PUT", "/dynamoemu/faults", {"seed": 1, "rules": [{"fault": "InternalServerError", "probability": 1}]},
                             "DENIEDKEY00001", "s")
        check("fault rule with no table by an identity denied it on table/orders", "AccessDeniedException" in body,
              "%d %s" % (status, body))
        status, body = admin(url, "PUT", "/dynamoemu/faults", {"seed": 1, "rules": [{"table": "other", "fault": "InternalServerError", "probability": 0}]},
                             "DENIEDKEY00001", "s")
        check("fault rule on the table it may", status == 200, "%d %s" % (status, body))
        root = client(url, "ROOTKEY0000001", secret="s")
        root.create_table(TableName="orders", BillingMode="PAY_PER_REQUEST",
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        refused("the denied identity's CreateBackup", lambda: client(url, "DENIEDKEY00001", secret="s").create_backup(
            TableName="orders", BackupName="bk1"))
    finally:
        proc.kill()
        proc.wait()


def main():
    work = tempfile.mkdtemp()
    try:
        binary = os.path.join(work, "dynamoemu")
        subprocess.run(["go", "build", "-o", binary, "./cmd/dynamoemu"], cwd=ROOT, check=True)
        conventions_tries(binary, work)
        iam_tries(binary, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("hostile-boundary: %d tries failed" % len(failures) if failures else "hostile-boundary: every try answered as it should")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
