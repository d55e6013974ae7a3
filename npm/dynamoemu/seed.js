'use strict'
// Seeding a base namespace once, for the tests that fork it (branches):
// CreateTable inputs, a directory of items (TABLE.json files) and a
// script, written through the DynamoDB API. emulatortest.Seed (Go) reads
// the same files.
const fs = require('node:fs')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

// call sends one DynamoDB API request to endpoint in the namespace of
// access key key in region, and resolves its answer; a rejection names
// the operation and the server's answer.
async function call(endpoint, key, region, op, body) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${op}`,
      authorization: `AWS4-HMAC-SHA256 Credential=${key}/20260101/${region}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) {
    const err = new Error(`dynamoemu: ${op}: ${res.status} ${text}`)
    err.body = text
    throw err
  }
  return text ? JSON.parse(text) : {}
}

const avTypes = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS'])

// isDynamoDBJSON: every attribute of every item is an object of one type key.
function isDynamoDBJSON(items) {
  return items.every((it) => Object.values(it).every((v) =>
    v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && avTypes.has(Object.keys(v)[0])))
}

// toAV is the DynamoDB JSON of a plain JSON value (numbers as JSON.parse
// read them: use DynamoDB JSON for numbers past 2^53).
function toAV(v) {
  if (v === null) return { NULL: true }
  if (typeof v === 'string') return { S: v }
  if (typeof v === 'number') return { N: String(v) }
  if (typeof v === 'boolean') return { BOOL: v }
  if (Array.isArray(v)) return { L: v.map(toAV) }
  return { M: Object.fromEntries(Object.entries(v).map(([k, e]) => [k, toAV(e)])) }
}

// readItems reads the TABLE.json files of dir: { table: [items in DynamoDB JSON] }.
function readItems(dir) {
  let files
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
  } catch (err) {
    throw new Error(`dynamoemu: seed items: ${dir}: ${err.message}`)
  }
  if (files.length === 0) throw new Error(`dynamoemu: seed items: ${dir} holds no TABLE.json file`)
  const out = {}
  for (const f of files) {
    let items
    try {
      items = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))
    } catch (err) {
      throw new Error(`dynamoemu: seed items: ${path.join(dir, f)}: ${err.message}`)
    }
    if (!Array.isArray(items)) throw new Error(`dynamoemu: seed items: ${path.join(dir, f)}: want a JSON list of items`)
    out[f.slice(0, -'.json'.length)] = isDynamoDBJSON(items) ? items : items.map((it) => toAV(it).M)
  }
  return out
}

// putItems writes items ({ table: [DynamoDB JSON items] }) with
// BatchWriteItem, 25 a call, 4 calls at a time; prefix goes before each
// table's name.
async function putItems(endpoint, key, region, items, prefix = '') {
  for (const [table, list] of Object.entries(items)) {
    const batches = []
    for (let i = 0; i < list.length; i += 25) batches.push(list.slice(i, i + 25))
    let next = 0
    const worker = async () => {
      while (next < batches.length) {
        const batch = batches[next++]
        let req = { [prefix + table]: batch.map((Item) => ({ PutRequest: { Item } })) }
        for (let tries = 0; req && Object.keys(req).length > 0; tries++) {
          if (tries === 10) throw new Error(`dynamoemu: seed items of ${table}: items left unprocessed`)
          req = (await call(endpoint, key, region, 'BatchWriteItem', { RequestItems: req })).UnprocessedItems
        }
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()])
  }
}

// runScript runs a seed script: a function, or the path of a module
// (CommonJS or ES) whose default export is one, called with
// { endpoint, region, credentials } of the base.
async function runScript(script, ctx) {
  let fn = script
  if (typeof script === 'string') {
    const mod = await import(pathToFileURL(path.resolve(script)).href)
    fn = mod.default ?? mod
    if (typeof fn !== 'function' && typeof fn?.default === 'function') fn = fn.default
    if (typeof fn !== 'function') throw new Error(`dynamoemu: seed script ${script} exports no function`)
  }
  await fn(ctx)
}

// readTables reads the CreateTable inputs of a JSON file (one, or a
// list) or of a directory of them.
function readTables(at) {
  try {
    const files = fs.statSync(at).isDirectory()
      ? fs.readdirSync(at).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(at, f))
      : [at]
    return files.flatMap((f) => [].concat(JSON.parse(fs.readFileSync(f, 'utf8'))))
  } catch (err) {
    throw new Error(`dynamoemu: seed tables: ${at}: ${err.message}`)
  }
}

// seedNamespace fills namespace key/region at endpoint: tables (a list
// of CreateTable inputs; one that exists is left as it is), items (a
// directory of TABLE.json files), then script.
async function seedNamespace(endpoint, key, region, { tables = [], items, script, prefix = '' } = {}) {
  if (typeof tables === 'string') tables = readTables(tables)
  for (const input of tables) {
    try {
      await call(endpoint, key, region, 'CreateTable', input)
    } catch (err) {
      if (!String(err.body).includes('ResourceInUseException')) throw err
    }
  }
  if (items) await putItems(endpoint, key, region, readItems(items), prefix)
  if (script) {
    await runScript(script, { endpoint, region, credentials: { accessKeyId: key, secretAccessKey: 'dynamoemu' } })
  }
}

module.exports = { call, seedNamespace, readItems, toAV }
