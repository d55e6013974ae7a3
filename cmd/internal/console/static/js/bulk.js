// Deleting many items: BatchWriteItem 25 keys at a time, unprocessed
// ones sent again (with a growing pause, a bounded number of times), and
// purging a table: Scan for the keys alone, a page at a time, deleting
// each page. Progress is reported as it goes.

import { call } from "./api.js";

const BATCH = 25;
const RETRIES = 8;

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * deleteKeys deletes the items of keys (DynamoDB JSON key maps) from
 * table; progress(done) is called after each batch. It resolves with how
 * many were deleted, and throws on an error answer or items the table
 * still leaves unprocessed after the retries.
 */
export async function deleteKeys(table, keys, progress = () => {}) {
  let done = 0;
  for (let i = 0; i < keys.length; i += BATCH) {
    let requests = keys.slice(i, i + BATCH).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > RETRIES) throw new Error(`${requests.length} deletes left unprocessed after ${RETRIES} retries`);
      if (attempt > 0) await pause(Math.min(2000, 50 * 2 ** attempt));
      const sent = requests.length;
      const out = await call("BatchWriteItem", { RequestItems: { [table]: requests } });
      requests = out.UnprocessedItems?.[table] || [];
      done += sent - requests.length;
      progress(done);
    }
  }
  return done;
}

/**
 * purgeTable deletes every item of a table (a TableDescription), a
 * scanned page at a time; progress(deleted) is called as it goes. It
 * resolves with how many were deleted.
 */
export async function purgeTable(t, progress = () => {}) {
  const names = {};
  t.KeySchema.forEach((k, i) => { names["#k" + i] = k.AttributeName; });
  let start;
  let deleted = 0;
  do {
    const input = { TableName: t.TableName, ProjectionExpression: Object.keys(names).join(", "), ExpressionAttributeNames: names, Limit: 500, ConsistentRead: true };
    if (start) input.ExclusiveStartKey = start;
    const out = await call("Scan", input);
    const keys = out.Items || [];
    if (keys.length) {
      const base = deleted;
      deleted += await deleteKeys(t.TableName, keys, (n) => progress(base + n));
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return deleted;
}
