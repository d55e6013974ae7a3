'use strict'
// dist/main.js of the framework's CLI template, reduced to what its
// DynamoDB stream event runs (.ci/serverless-offline): the published
// @mbc-cqrs-serverless/core's DefaultEventFactory turns the records into
// DataSyncNewCommandEvents, its DataSyncNewCommandEventHandler starts the
// `command` state machine, and the framework test's harness
// (conventions/internal/frameworktest/testdata/harness.js, copied beside
// this file) runs that state machine in process, each state invoking the
// framework's DataSyncCommandSfnEventHandler, which writes the history
// and data tables. The template's NestJS app would build the same
// services with Nest; Step Functions Local would run the same states.
// Each invocation with records is logged (../e2e-log.jsonl) with the time
// this file began to load and the time the handler was called.
const loadedAt = Date.now() // with the template's reloadHandler: true, each invocation loads this file afresh
const fs = require('node:fs')
const path = require('node:path')
const { Framework, outsideRequests } = require('./harness')

process.env.AWS_ACCESS_KEY_ID ||= 'local'
process.env.AWS_SECRET_ACCESS_KEY ||= 'local'
const log = path.join(__dirname, '..', 'e2e-log.jsonl')
let fw

exports.handler = async (event) => {
  if (!Array.isArray(event?.Records)) return { statusCode: 200, body: 'ok' } // the httpApi routes
  const at = Date.now()
  fs.appendFileSync(log, JSON.stringify({ loadedAt, at, keys: event.Records.map((r) => r.dynamodb?.Keys) }) + '\n')
  fw ??= new Framework(process.env.DYNAMODB_ENDPOINT || 'http://localhost:8000', ['master'])
  await outsideRequests(async () => {
    const evs = await fw.eventFactory.transformDynamodbStream(event)
    for (const ev of evs) await fw.newCommandHandler.execute(ev)
    while (fw.executions.length) await fw.runExecution(fw.executions.shift())
  })
  return {}
}
