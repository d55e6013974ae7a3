'use strict'
// Stand-ins for the two services the template's app calls between a
// command and its data row that neither npm nor Debian ships: Step
// Functions Local (a jar from AWS, on SFN_ENDPOINT, port 8083) and the
// SNS of serverless-offline-sns (which forwards to ElasticMQ, a jar; on
// SNS_ENDPOINT, port 4002). Used by .ci/serverless-offline.
//
//   node outside.js SERVERLESS_YML LAMBDA_URL LOG
//
// Step Functions: StartExecution runs the state machine of that name in
// SERVERLESS_YML (stepFunctions.stateMachines) as Step Functions Local
// does with its Lambda endpoint: each `arn:aws:states:::lambda:invoke`
// task is an Invoke of serverless-offline's lambda port (LAMBDA_URL),
// its Parameters with their `.$` paths, OutputPath, Choice (NumericEquals,
// StringEquals, BooleanEquals, Default), Map (every item at once), Succeed
// and Fail; `.waitForTaskToken` waits for SendTaskSuccess/Failure. Retry
// is not run: an error fails the execution. SNS: Publish is answered and
// kept. Each started and ended execution and each notification is a line
// of LOG (JSON).
const fs = require('node:fs')
const http = require('node:http')
const { randomUUID } = require('node:crypto')
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
    req.on('end', () => {
      try {
        const [status, type, out] = handle(req, body)
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

// SNS: the query protocol (form in, XML out) or JSON 1.0.
serve(port('SNS_ENDPOINT', 'http://localhost:4002'), (req, body) => {
  const id = randomUUID()
  const target = String(req.headers['x-amz-target'] || '')
  if (target) {
    const op = target.split('.').pop()
    if (op !== 'Publish') throw new Error(`${op} is not in this stand-in`)
    log({ sns: JSON.parse(body || '{}') })
    return [200, 'application/x-amz-json-1.0', JSON.stringify({ MessageId: id })]
  }
  const form = Object.fromEntries(new URLSearchParams(body))
  if (form.Action !== 'Publish') throw new Error(`${form.Action} is not in this stand-in`)
  log({ sns: form })
  return [200, 'text/xml', `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>${id}</MessageId></PublishResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></PublishResponse>`]
})
