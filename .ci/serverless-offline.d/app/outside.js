'use strict'
// Stand-ins for the services of the template's docker compose file that
// its serverless-offline plugins and app need between a command and its
// data row, and that neither npm nor Debian ships: Step Functions Local
// (a jar from AWS, on SFN_ENDPOINT, port 8083), ElasticMQ (a jar; SQS on
// port 9324, where serverless-offline-sqs polls the template's queues and
// serverless-offline-sns, the template's own SNS on port 4002, sends the
// notifications it subscribes them to) and the AppSync simulator (built
// from the template's infra-local/appsync-simulator; on APPSYNC_ENDPOINT,
// port 4001, where the app's notification handler sends each command's
// status: answered and kept). Used by .ci/serverless-offline.
//
//   node outside.js SERVERLESS_YML LAMBDA_URL LOG
//
// Step Functions: StartExecution runs the state machine of that name in
// SERVERLESS_YML (stepFunctions.stateMachines) as Step Functions Local
// does with its Lambda endpoint: each `arn:aws:states:::lambda:invoke`
// task is an Invoke of serverless-offline's lambda port (LAMBDA_URL),
// its Parameters with their `.$` paths, OutputPath, Choice (NumericEquals,
// StringEquals, BooleanEquals, Default), Map (every item at once), Succeed
// and Fail; `.waitForTaskToken` waits for SendTaskSuccess/Failure;
// CreateStateMachine (serverless-step-functions-local's, at start) is
// answered. Retry
// is not run: an error fails the execution. SQS (the query protocol, form
// in and XML out, and JSON 1.0): GetQueueUrl, CreateQueue, SendMessage,
// ReceiveMessage (waiting up to WaitTimeSeconds for a message),
// DeleteMessage(Batch), GetQueueAttributes; a message is received once
// (no visibility timeout: the template's notification handler calls
// AppSync, which does not run here, and would fail again each time).
// Each started and ended execution and each message is a line of LOG
// (JSON).
const fs = require('node:fs')
const http = require('node:http')
const { createHash, randomUUID } = require('node:crypto')
const yaml = require('js-yaml')

const [ymlPath, lambdaURL, logPath] = process.argv.slice(2)
const machines = yaml.load(fs.readFileSync(ymlPath, 'utf8')).stepFunctions.stateMachines
const log = (o) => fs.appendFileSync(logPath, JSON.stringify({ at: Date.now(), ...o }) + '\n')
const tokens = new Map() // task token -> { resolve, reject }

// at evaluates a JSONPath of the forms the template uses: $, $.a.b,
// $.a[0][0], $$ and $$.a.b (the context object).
function at(path, data, ctx) {
  let v = path.startsWith('$$') ? ctx : data
  const rest = path.replace(/^\$\$?/, '')
  for (const m of rest.matchAll(/\.([^.[]+)|\[(\d+)\]/g)) {
    if (v == null) return undefined
    v = m[1] !== undefined ? v[m[1]] : v[Number(m[2])]
  }
  return v
}

function params(p, data, ctx) {
  if (Array.isArray(p)) return p.map((x) => params(x, data, ctx))
  if (!p || typeof p !== 'object') return p
  const out = {}
  for (const [k, v] of Object.entries(p)) {
    if (k.endsWith('.$')) out[k.slice(0, -2)] = at(v, data, ctx)
    else out[k] = params(v, data, ctx)
  }
  return out
}

async function invoke(fn, payload) {
  const name = fn.split(':').pop()
  const res = await fetch(`${lambdaURL}/2015-03-31/functions/${name}/invocations`, { method: 'POST', body: JSON.stringify(payload) })
  const body = await res.text()
  const out = body ? JSON.parse(body) : null
  if (res.status !== 200 || res.headers.get('x-amz-function-error')) {
    throw Object.assign(new Error(`${name}: ${res.status} ${body}`), { sfnError: out?.errorType || 'Lambda.Unknown' })
  }
  return out
}

function choose(st, data) {
  for (const c of st.Choices) {
    const v = at(c.Variable, data)
    if (('NumericEquals' in c && v === c.NumericEquals) || ('StringEquals' in c && v === c.StringEquals) ||
      ('BooleanEquals' in c && v === c.BooleanEquals)) return c.Next
  }
  if (!st.Default) throw Object.assign(new Error('no choice matched'), { sfnError: 'States.NoChoiceMatched' })
  return st.Default
}

async function run(def, input, exec) {
  let name = def.StartAt
  let data = input
  for (;;) {
    const st = def.States[name]
    const ctx = { ...exec, State: { Name: name, EnteredTime: new Date().toISOString(), RetryCount: 0 } }
    if (st.Type === 'Choice') {
      name = choose(st, data)
      continue
    }
    if (st.Type === 'Succeed') return data
    if (st.Type === 'Fail') throw Object.assign(new Error(at(st.CausePath || '$.cause', data) || st.Cause || 'Fail'), { sfnError: at(st.ErrorPath || '$.error', data) || st.Error })
    if (st.Type === 'Map') {
      const items = at(st.ItemsPath || '$', data, ctx) || []
      data = await Promise.all(items.map((it) => run(st.Iterator, it, exec)))
    } else if (st.Type === 'Task' && st.Resource.startsWith('arn:aws:states:::lambda:invoke')) {
      const wait = st.Resource.endsWith('.waitForTaskToken')
      if (wait) ctx.Task = { Token: randomUUID() }
      const p = params(st.Parameters, data, ctx)
      const waited = wait && new Promise((resolve, reject) => tokens.set(ctx.Task.Token, { resolve, reject }))
      const payload = await invoke(p.FunctionName, p.Payload)
      data = wait ? await waited : { ExecutedVersion: '$LATEST', Payload: payload, StatusCode: 200 }
      if (st.OutputPath) data = at(st.OutputPath, data, ctx)
    } else if (st.Type === 'Pass') {
      if (st.Result !== undefined) data = st.Result
    } else {
      throw new Error(`state ${name}: type ${st.Type} ${st.Resource || ''} is not in this stand-in`)
    }
    if (st.End) return data
    name = st.Next
  }
}

const sfn = {
  // serverless-step-functions-local makes the file's state machines at
  // start (it runs them from the file here too).
  CreateStateMachine: (req) => ({ stateMachineArn: `arn:aws:states:ap-northeast-1:101010101010:stateMachine:${req.name}`, creationDate: Date.now() / 1000 }),
  StartExecution(req) {
    const machine = Object.entries(machines).find(([k, m]) => req.stateMachineArn.endsWith(`:stateMachine:${m.name || k}`))
    if (!machine) throw Object.assign(new Error(`State Machine Does Not Exist: '${req.stateMachineArn}'`), { type: 'StateMachineDoesNotExist' })
    const name = req.name || randomUUID()
    const executionArn = `${req.stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`
    const input = JSON.parse(req.input || '{}')
    const exec = { Execution: { Id: executionArn, Input: input, Name: name, StartTime: new Date().toISOString() },
      StateMachine: { Id: req.stateMachineArn, Name: machine[1].name || machine[0] } }
    log({ sfn: 'started', name })
    run(machine[1].definition, input, exec).then(
      () => log({ sfn: 'succeeded', name }),
      (err) => log({ sfn: 'failed', name, error: err.sfnError, cause: String(err.message).slice(0, 2000) }))
    return { executionArn, startDate: Date.now() / 1000 }
  },
  SendTaskSuccess(req) {
    const t = tokens.get(req.taskToken)
    if (!t) throw Object.assign(new Error('Invalid Token'), { type: 'InvalidToken' })
    tokens.delete(req.taskToken)
    t.resolve(JSON.parse(req.output))
    return {}
  },
  SendTaskFailure(req) {
    const t = tokens.get(req.taskToken)
    if (!t) throw Object.assign(new Error('Invalid Token'), { type: 'InvalidToken' })
    tokens.delete(req.taskToken)
    t.reject(Object.assign(new Error(req.cause || ''), { sfnError: req.error }))
    return {}
  },
}

function serve(port, handle) {
  http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => { body += c })
    req.on('end', async () => {
      try {
        const [status, type, out] = await handle(req, body)
        res.writeHead(status, { 'Content-Type': type })
        res.end(out)
      } catch (err) {
        res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' })
        res.end(JSON.stringify({ __type: err.type || 'InvalidParameterValue', message: err.message }))
      }
    })
  }).listen(port, '127.0.0.1')
}

const port = (env, dflt) => Number(new URL(process.env[env] || dflt).port)

serve(port('SFN_ENDPOINT', 'http://localhost:8083'), (req, body) => {
  const op = String(req.headers['x-amz-target'] || '').split('.').pop()
  if (!sfn[op]) throw Object.assign(new Error(`${op} is not in this stand-in`), { type: 'UnknownOperationException' })
  return [200, 'application/x-amz-json-1.0', JSON.stringify(sfn[op](JSON.parse(body || '{}')))]
})

// SQS: the queues, by name, each a list of messages and the receivers
// waiting for one.
const queues = new Map()
const sqsPort = 9324
function queue(name) {
  if (!queues.has(name)) queues.set(name, { messages: [], waiting: [] })
  return queues.get(name)
}
const md5 = (s) => createHash('md5').update(String(s)).digest('hex')
const queueURL = (name) => `http://localhost:${sqsPort}/101010101010/${name}`
const queueName = (url) => String(url || '').split('/').pop()
const sqs = {
  GetQueueUrl: (r) => ({ QueueUrl: queueURL(r.QueueName) }),
  CreateQueue: (r) => (queue(r.QueueName), { QueueUrl: queueURL(r.QueueName) }),
  GetQueueAttributes: (r) => ({ Attributes: { QueueArn: `arn:aws:sqs:ap-northeast-1:101010101010:${queueName(r.QueueUrl)}` } }),
  SendMessage(r) {
    const q = queue(queueName(r.QueueUrl))
    // The message attributes are not kept: an SDK checks their digest, which is not made here.
    const m = { MessageId: randomUUID(), ReceiptHandle: randomUUID(), MD5OfBody: md5(r.MessageBody), Body: r.MessageBody, Attributes: {} }
    log({ sqs: queueName(r.QueueUrl), body: r.MessageBody })
    const w = q.waiting.shift()
    if (w) w([m])
    else q.messages.push(m)
    return { MessageId: m.MessageId, MD5OfMessageBody: md5(r.MessageBody) }
  },
  async ReceiveMessage(r) {
    const q = queue(queueName(r.QueueUrl))
    const n = Math.min(Number(r.MaxNumberOfMessages || 1), 10)
    if (q.messages.length > 0) return { Messages: q.messages.splice(0, n) }
    const wait = Math.min(Number(r.WaitTimeSeconds || 0), 20) * 1000
    const got = await new Promise((resolve) => {
      q.waiting.push(resolve)
      setTimeout(() => { q.waiting = q.waiting.filter((x) => x !== resolve); resolve([]) }, wait)
    })
    return got.length ? { Messages: got } : {}
  },
  DeleteMessage: () => ({}),
  DeleteMessageBatch: (r) => ({ Successful: (r.Entries || []).map((e) => ({ Id: e.Id })), Failed: [] }),
}

// xmlOf writes an SQS query answer: op's result members, Messages as
// Message elements.
function xmlOf(op, out) {
  const esc = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  let inner = ''
  for (const [k, v] of Object.entries(out)) {
    if (k === 'Messages') {
      for (const m of v) inner += `<Message><MessageId>${m.MessageId}</MessageId><ReceiptHandle>${m.ReceiptHandle}</ReceiptHandle><MD5OfBody>${md5(m.Body)}</MD5OfBody><Body>${esc(m.Body)}</Body></Message>`
    } else if (k === 'Attributes') {
      for (const [n, a] of Object.entries(v)) inner += `<Attribute><Name>${n}</Name><Value>${esc(a)}</Value></Attribute>`
    } else if (k === 'Successful') {
      for (const e of v) inner += `<DeleteMessageBatchResultEntry><Id>${esc(e.Id)}</Id></DeleteMessageBatchResultEntry>`
    } else if (typeof v !== 'object') {
      inner += `<${k}>${esc(v)}</${k}>`
    }
  }
  return `<${op}Response xmlns="http://queue.amazonaws.com/doc/2012-11-05/"><${op}Result>${inner}</${op}Result><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${op}Response>`
}

// formRequest reads a query request's members: Entries and attributes
// given as Name.N.Member become lists.
function formRequest(form) {
  const r = {}
  for (const [k, v] of Object.entries(form)) {
    const m = k.match(/^(DeleteMessageBatchRequestEntry|Entries)\.(\d+)\.(\w+)$/)
    if (m) {
      r.Entries = r.Entries || []
      const e = (r.Entries[Number(m[2]) - 1] = r.Entries[Number(m[2]) - 1] || {})
      e[m[3]] = v
    } else r[k] = v
  }
  if (r.Entries) r.Entries = r.Entries.filter(Boolean)
  return r
}

serve(sqsPort, async (req, body) => {
  const target = String(req.headers['x-amz-target'] || '')
  if (target) {
    const op = target.split('.').pop()
    if (!sqs[op]) throw Object.assign(new Error(`${op} is not in this stand-in`), { type: 'UnsupportedOperation' })
    return [200, 'application/x-amz-json-1.0', JSON.stringify(await sqs[op](JSON.parse(body || '{}')))]
  }
  const form = Object.fromEntries(new URLSearchParams(body))
  const op = form.Action
  if (!sqs[op]) throw new Error(`${op} is not in this stand-in`)
  if (!form.QueueUrl && req.url.length > 1) form.QueueUrl = `http://localhost:${sqsPort}${req.url.split('?')[0]}`
  return [200, 'text/xml', xmlOf(op, await sqs[op](formRequest(form)))]
})

// AppSync: each GraphQL request is answered with no errors, and kept.
serve(port('APPSYNC_ENDPOINT', 'http://localhost:4001/graphql'), (req, body) => {
  log({ appsync: body.slice(0, 300) })
  return [200, 'application/json', JSON.stringify({ data: {} })]
})
