'use strict'
// What the Jest and Vitest set-up files share: the server's options from
// the environment, a namespace per worker, and tables made from
// CreateTable JSON files.
const fs = require('node:fs')
const path = require('node:path')
const { start } = require('./index.js')

// startForTests starts the server a test run shares and exports its
// endpoint to the workers (DYNAMODB_ENDPOINT, AWS_ENDPOINT_URL_DYNAMODB:
// the AWS SDK v3 reads the latter by itself).
async function startForTests() {
  const emu = await start({
    port: Number(process.env.DYNAMOEMU_PORT || 0),
    dbPath: process.env.DYNAMOEMU_DB_PATH || undefined,
    conventions: process.env.DYNAMOEMU_CONVENTIONS || undefined,
    args: process.env.DYNAMOEMU_ARGS ? process.env.DYNAMOEMU_ARGS.split(/\s+/).filter(Boolean) : [],
  })
  process.env.DYNAMODB_ENDPOINT = emu.endpoint
  process.env.AWS_ENDPOINT_URL_DYNAMODB = emu.endpoint
  process.env.AWS_REGION = process.env.AWS_REGION || 'us-east-1'
  return emu
}

// isolateWorker gives this worker a namespace of its own: the server
// keeps one database per access key and region, so each worker's
// credentials are its own (DYNAMOEMU_ISOLATE=0 keeps the ones set).
function isolateWorker(workerId) {
  if (process.env.DYNAMOEMU_ISOLATE === '0') return
  process.env.AWS_ACCESS_KEY_ID = `dynamoemuworker${workerId || 1}`
  process.env.AWS_SECRET_ACCESS_KEY = 'dynamoemu'
  delete process.env.AWS_SESSION_TOKEN
  delete process.env.AWS_PROFILE
}

// tableInputs reads the CreateTable inputs of DYNAMOEMU_TABLES: a JSON
// file (one input, or a list of them) or a directory of such files (the
// mbc-cqrs-serverless layout: prisma/dynamodbs/*.json).
function tableInputs() {
  const at = process.env.DYNAMOEMU_TABLES
  if (!at) return []
  const files = fs.statSync(at).isDirectory()
    ? fs.readdirSync(at).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(at, f))
    : [at]
  return files.flatMap((f) => [].concat(JSON.parse(fs.readFileSync(f, 'utf8'))))
}

// createTables makes the tables of DYNAMOEMU_TABLES in this worker's
// namespace (those that exist are left as they are).
async function createTables() {
  const endpoint = process.env.DYNAMODB_ENDPOINT
  const key = process.env.AWS_ACCESS_KEY_ID || 'dynamoemu'
  const region = process.env.AWS_REGION || 'us-east-1'
  for (const input of tableInputs()) {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.CreateTable',
        authorization: `AWS4-HMAC-SHA256 Credential=${key}/20260101/${region}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
      },
      body: JSON.stringify(input),
    })
    const text = await res.text()
    if (!res.ok && !text.includes('ResourceInUseException')) {
      throw new Error(`dynamoemu: CreateTable ${input.TableName}: ${res.status} ${text}`)
    }
  }
}

module.exports = { startForTests, isolateWorker, createTables, tableInputs }
