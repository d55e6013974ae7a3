'use strict'
// The harness of the framework test: the published
// @mbc-cqrs-serverless/core services, built by hand (no Nest boot) against
// the emulator, with in-process stand-ins for what the framework reaches
// outside DynamoDB. What is stubbed, and why:
//
//   - ConfigService: a map of the template's .env values (the services only
//     call config.get).
//   - S3Service: never reached (attributes stay under ATTRIBUTE_LIMIT_SIZE).
//   - SnsService: records the notifications (command status, alarms).
//   - ExplorerService, ModuleRef: no decorator-registered sync handlers; the
//     module registry is a Map (what Nest's container would hold).
//   - StepFunctionService: startExecution queues an in-process execution of
//     the template's `command` state machine (check_version, then
//     set_ttl_command, history_copy, transform_data, sync_data for each
//     handler, finish), each state invoking the framework's
//     DataSyncCommandSfnEventHandler as the Lambda would.
//   - The DynamoDB stream -> Lambda trigger (serverless-offline-dynamodb-
//     streams locally): a poller reads the emulator's DynamoDB Streams API
//     (DescribeTable, DescribeStream, GetShardIterator, GetRecords) and hands
//     the records to the framework's DefaultEventFactory and
//     DataSyncNewCommandEventHandler, as the plugin hands them to the Lambda.
//
// Everything that talks to DynamoDB is the framework's own code and client.

const { AsyncLocalStorage } = require('node:async_hooks')
const path = require('node:path')

const {
  DynamoDBClient,
  DescribeTableCommand,
} = require('@aws-sdk/client-dynamodb')
const {
  DynamoDBStreamsClient,
  DescribeStreamCommand,
  GetShardIteratorCommand,
  GetRecordsCommand,
} = require('@aws-sdk/client-dynamodb-streams')
const { Logger } = require('@nestjs/common')

const core = (p) => require(path.join('@mbc-cqrs-serverless/core/dist', p))
const { DynamoDbService } = core('data-store/dynamodb.service')
const { CommandService } = core('commands/command.service')
const { DataService } = core('commands/data.service')
const { HistoryService } = core('commands/history.service')
const { TtlService } = core('commands/ttl.service')
const { CommandEventHandler } = core('commands/command.event.handler')
const { DataSyncDdsHandler } = core('commands/handlers/data-sync-dds.handler')
const { DataSyncNewCommandEventHandler } = core('command-events/data-sync.new.event.handler')
const { DataSyncCommandSfnEventHandler } = core('command-events/data-sync.sfn.event.handler')
const { DataSyncCommandSfnEvent } = core('command-events/data-sync.sfn.event')
const { DefaultEventFactory } = core('events/default-event-factory')
const { removeSortKeyVersion: removeVersion } = core('helpers/key')

// The template's .env.local, with the emulator as DynamoDB.
function env(endpoint) {
  return {
    NODE_ENV: 'local',
    APP_NAME: 'demo',
    DYNAMODB_ENDPOINT: endpoint,
    DYNAMODB_REGION: 'ap-northeast-1',
    ATTRIBUTE_LIMIT_SIZE: 389120,
    SFN_COMMAND_ARN: 'arn:aws:states:ap-northeast-1:101010101010:stateMachine:command',
    SNS_TOPIC_ARN: 'arn:aws:sns:ap-northeast-1:101010101010:CqrsSnsTopic',
    SNS_ALARM_TOPIC_ARN: 'arn:aws:sns:ap-northeast-1:101010101010:CqrsSnsTopic',
  }
}

// The tenant of the request being served, for the header middleware.
const tenantStore = new AsyncLocalStorage()

// addTenantHeader is the middleware README.md documents: every request of
// the client carries x-tenant-code, the tenant of the request being served,
// so the emulator's tenant guard (rule B10) knows the caller.
function addTenantHeader(client) {
  client.middlewareStack.add(
    (next) => async (args) => {
      const tenant = tenantStore.getStore()
      if (tenant) args.request.headers['x-tenant-code'] = tenant
      return next(args)
    },
    { step: 'build', name: 'dynamoemuTenantHeader' },
  )
}

// invokeContext is what the framework reads the user from
// (getUserContext): an API Gateway event with Cognito claims.
function invokeContext(tenant, userId = 'user-0001') {
  return {
    event: {
      headers: {},
      requestContext: {
        http: { sourceIp: '127.0.0.1' },
        authorizer: { jwt: { claims: { sub: userId, 'custom:tenant': tenant, 'custom:roles': '[]' } } },
      },
    },
    context: { awsRequestId: `req-${Math.random().toString(36).slice(2, 10)}` },
  }
}

// asTenant serves fn as a request of tenant: the middleware sends the
// tenant, and fn gets the invoke context to pass to the framework.
function asTenant(tenant, fn) {
  return tenantStore.run(tenant, () => fn({ invokeContext: invokeContext(tenant) }))
}

// outsideRequests runs fn with no tenant (the stream and Step Functions
// Lambdas serve no user).
function outsideRequests(fn) {
  return tenantStore.exit(fn)
}

// versionKey names version v of record's entity.
const versionKey = (record, v) => `${record.pk}\n${removeVersion(record.sk)}\n${v}`

// jitter waits 0-20 ms: a Step Functions state transition.
const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 21)))

// Logs collects the framework's log lines; printed when a test fails.
class Logs {
  constructor() {
    this.lines = []
  }
  push(level, args) {
    this.lines.push(`${level} ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`)
    if (this.lines.length > 2000) this.lines.shift()
  }
  log(...a) { this.push('log', a) }
  error(...a) { this.push('error', a) }
  warn(...a) { this.push('warn', a) }
  debug() {}
  verbose() {}
}

// Framework builds the services of the named cqrs modules.
class Framework {
  constructor(endpoint, modules) {
    this.env = env(endpoint)
    this.logs = new Logs()
    Logger.overrideLogger(this.logs)
    const config = { get: (k) => this.env[k] }
    this.config = config
    this.notifications = [] // SNS stand-in
    this.executions = [] // Step Functions stand-in: queued executions
    // waited: live executions that waited at wait_prev_command;
    // overlapped: live executions whose set_ttl_command began before the
    // previous version's execution ended.
    this.sfnRuns = { started: 0, succeeded: 0, failed: 0, waited: 0, overlapped: 0 }
    const s3 = {
      putItem: async () => { throw new Error('S3 is not part of this test') },
      getItem: async () => { throw new Error('S3 is not part of this test') },
    }
    this.s3 = s3
    this.sns = { publish: async (msg, topic) => { this.notifications.push({ topic, msg }) } }
    this.ddb = new DynamoDbService(config, s3)
    this.requests = 0
    this.ddb.client.middlewareStack.add(
      (next) => async (args) => {
        this.requests++
        return next(args)
      },
      { step: 'initialize', name: 'countRequests' },
    )
    // Live, every request takes a random 0-5 ms more, as on a network:
    // the order in which concurrent executions' requests land varies.
    this.latency = false
    this.ddb.client.middlewareStack.add(
      (next) => async (args) => {
        if (this.latency) await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 6)))
        return next(args)
      },
      { step: 'finalizeRequest', name: 'networkLatency' },
    )
    // holdNextPut's holds: a PutItem they match waits for its release.
    this.holds = []
    this.ddb.client.middlewareStack.add(
      (next) => async (args) => {
        const i = this.holds.findIndex((h) => h.matches(args.input))
        if (i >= 0) {
          const [h] = this.holds.splice(i, 1)
          h.reach()
          await h.released
        }
        return next(args)
      },
      { step: 'finalizeRequest', name: 'holdPut' },
    )
    addTenantHeader(this.ddb.client)
    this.registry = new Map()
    this.waiters = new Map() // live: version key -> resume of the execution waiting for it
    this.finished = new Set() // live: version keys whose finish state ran
    this.ended = new Set() // live: version keys whose execution ended
    this.states = new Set() // live: version key + state, for each state an execution reached
    this.stateWaiters = new Map() // live: version key + state -> whenReached's resolve
    this.lastState = new Map() // live: version key -> the last state its execution reached or ended with
    this.progress = 0 // live: executions started, states reached and executions ended, for live's stall check
    const moduleRef = { get: (name) => this.registry.get(typeof name === 'string' ? name : name.name) }
    this.modules = {}
    for (const name of modules) this.modules[name] = this.buildModule(name, moduleRef)
    const sfnService = {
      startExecution: async (arn, input, name) => {
        this.executions.push({ arn, input: JSON.parse(JSON.stringify(input)), name })
        this.sfnRuns.started++
        this.progress++
        return { executionArn: `${arn}:${name}` }
      },
    }
    this.newCommandHandler = new DataSyncNewCommandEventHandler(config, sfnService, this.ddb)
    this.sfnHandler = new DataSyncCommandSfnEventHandler(this.ddb, moduleRef)
    this.eventFactory = new DefaultEventFactory()
    this.streams = new DynamoDBStreamsClient({ endpoint, region: this.env.DYNAMODB_REGION })
    this.shards = new Map() // stream ARN -> { iterator }
  }

  buildModule(tableName, moduleRef) {
    const options = { tableName }
    const dataService = new DataService(options, this.ddb)
    const ttlService = new TtlService(options, this.ddb)
    const historyService = new HistoryService(options, this.ddb, dataService, ttlService)
    const dds = new DataSyncDdsHandler(dataService)
    const explorer = { exploreDataSyncHandlers: () => ({ dataSyncHandlers: [] }) }
    const commandService = new CommandService(options, this.ddb, explorer, moduleRef, this.sns, dds, dataService, ttlService)
    commandService.onModuleInit()
    const handler = new CommandEventHandler(options, commandService, dataService, historyService, this.s3, this.sns, this.config)
    // finish resumes the next version (1.2.5's checkNextToken; see
    // waitPrevious).
    const checkNextToken = handler.checkNextToken.bind(handler)
    handler.checkNextToken = async (event) => {
      const ret = await checkNextToken(event)
      this.resumeNext(event.commandRecord)
      return ret
    }
    this.registry.set(`${tableName}_CommandEventHandler`, handler)
    return { commandService, dataService, historyService, ttlService, handler,
      commandTable: this.ddb.getTableName(tableName, 'command'),
      dataTable: this.ddb.getTableName(tableName, 'data'),
      historyTable: this.ddb.getTableName(tableName, 'history') }
  }

  // sync delivers the command tables' new stream records to the framework
  // and runs the executions they start, until no record is left: what the
  // stream plugin, the Lambda and Step Functions do between a publishAsync
  // and its data row.
  async sync() {
    return outsideRequests(async () => {
      for (;;) {
        let events = 0
        for (const m of Object.values(this.modules)) {
          const records = await this.readStream(m.commandTable)
          if (!records.length) continue
          const evs = await this.eventFactory.transformDynamodbStream({ Records: records })
          for (const ev of evs) {
            await this.newCommandHandler.execute(ev)
            events++
          }
        }
        while (this.executions.length) await this.runExecution(this.executions.shift())
        if (!events) return
      }
    })
  }

  // readStream returns the records of a table's stream since the last call,
  // as Lambda event records (eventSourceARN set, as the plugin sets it).
  async readStream(table) {
    const desc = await this.ddb.client.send(new DescribeTableCommand({ TableName: table }))
    const arn = desc.Table.LatestStreamArn
    let st = this.shards.get(arn)
    if (!st) {
      const ds = await this.streams.send(new DescribeStreamCommand({ StreamArn: arn }))
      const shard = ds.StreamDescription.Shards[0]
      const it = await this.streams.send(new GetShardIteratorCommand({
        StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }))
      st = { iterator: it.ShardIterator }
      this.shards.set(arn, st)
    }
    const out = []
    for (;;) {
      const res = await this.streams.send(new GetRecordsCommand({ ShardIterator: st.iterator }))
      st.iterator = res.NextShardIterator
      if (!res.Records.length) break
      for (const r of res.Records) {
        out.push({ ...r, eventSourceARN: arn, dynamodb: { ...r.dynamodb,
          ApproximateCreationDateTime: Math.floor(new Date(r.dynamodb.ApproximateCreationDateTime).getTime() / 1000) } })
      }
    }
    return out
  }

  // live delivers stream records and runs the executions they start
  // concurrently while fn runs, as the deployed runtime does: each
  // execution starts as soon as its record is read, and a version whose
  // previous one is not synced yet waits at wait_prev_command until that
  // version's finish state resumes it. It returns when fn is done and every
  // execution has ended; an execution's error is thrown then. When no
  // execution moves for stallMs while one is running or fn waits for a
  // state (whenReached), it throws a LostResumeError naming each wait left:
  // the versions at wait_prev_command and the states fn waits for, each
  // with the last state the execution waited for reached.
  async live(fn, { stallMs = 30000 } = {}) {
    const running = new Set()
    const errors = []
    let stop = false
    let stalled = null
    let onStall
    const stall = new Promise((resolve) => { onStall = resolve })
    const poll = outsideRequests(async () => {
      let seen = -1
      let since = Date.now()
      for (;;) {
        const stopping = stop
        let events = 0
        for (const m of Object.values(this.modules)) {
          const records = await this.readStream(m.commandTable)
          if (!records.length) continue
          const evs = await this.eventFactory.transformDynamodbStream({ Records: records })
          for (const ev of evs) {
            await this.newCommandHandler.execute(ev)
            events++
          }
        }
        while (this.executions.length) {
          const p = this.runExecution(this.executions.shift(), true).catch((err) => errors.push(err))
          running.add(p)
          p.finally(() => running.delete(p))
        }
        if (stopping && !events && !running.size) return
        if (this.progress !== seen || events || !(running.size || this.stateWaiters.size)) {
          seen = this.progress
          since = Date.now()
        } else if (Date.now() - since >= stallMs) {
          stalled = this.lostResumes()
          onStall()
          return
        }
        if (!events) await new Promise((r) => setTimeout(r, running.size ? 1 : 5))
      }
    })
    this.latency = true
    try {
      await Promise.race([fn(), stall])
    } finally {
      stop = true
      await poll
      this.latency = false
    }
    if (stalled) throw new LostResumeError(stalled)
    if (errors.length) throw errors[0]
  }

  // lostResumes describes what live waits for when nothing moves: each
  // version waiting at wait_prev_command (waiting: the version waiting;
  // prevLastState: the last state the execution of the version before it
  // reached or how it ended, 'none' if it never began one) and each state
  // fn waits for (whenReached: version and state; its lastState).
  lostResumes() {
    const last = (pk, sk, v) => this.lastState.get(`${pk}\n${sk}\n${v}`) || 'none'
    const waits = [...this.waiters.keys()].map((key) => {
      const [pk, sk, prev] = key.split('\n')
      return { pk, sk, waiting: Number(prev) + 1, prevLastState: last(pk, sk, prev) }
    })
    for (const key of this.stateWaiters.keys()) {
      const [pk, sk, v, state] = key.split('\n')
      waits.push({ pk, sk, whenReached: `v${v} ${state}`, lastState: last(pk, sk, v) })
    }
    return waits
  }

  // waitPrevious blocks a live execution of version v of record's entity
  // until the execution of v-1 has passed its finish state's work. The
  // framework's 1.2.5 resumes the waiting version from finish
  // (checkNextToken: getNextCommand, then SendTaskSuccess with the token
  // wait_prev_command stored); 0.1.48-beta.0 returns the token and leaves
  // resuming to the application. The stand-in resumes at the same point,
  // and never loses the signal (the framework's lost-resume stall is fixed
  // in 1.3.5, and is not what this test is about).
  waitPrevious(record) {
    const key = versionKey(record, record.version - 1)
    if (this.finished.has(key)) return Promise.resolve()
    return new Promise((resolve) => this.waiters.set(key, resolve))
  }

  // resumeNext is the stand-in for 1.2.5's checkNextToken resuming the
  // next version, called inside the finish state (after its STARTED
  // status, before its FINISHED one, as in 1.2.5).
  resumeNext(record) {
    const key = versionKey(record, record.version)
    this.finished.add(key)
    const resolve = this.waiters.get(key)
    if (resolve) {
      this.waiters.delete(key)
      resolve()
    }
  }

  // holdNextPut holds the next PutItem of (pk, sk) in table before it is
  // sent: reached resolves when it is held, release sends it. A test uses
  // it to land another write between a read and the write that follows it.
  holdNextPut(table, pk, sk) {
    let reach
    let release
    const reached = new Promise((resolve) => { reach = resolve })
    const released = new Promise((resolve) => { release = resolve })
    this.holds.push({
      matches: (input) => input.TableName === table && input.Item?.pk?.S === pk && input.Item?.sk?.S === sk && !input.ConditionExpression,
      reach, released,
    })
    return { reached, release }
  }

  // whenReached resolves when the live execution of version v of the
  // entity (pk, sk) is about to run state.
  whenReached(pk, sk, v, state) {
    const key = `${pk}\n${removeVersion(sk)}\n${v}\n${state}`
    if (this.states.has(key)) return Promise.resolve()
    return new Promise((resolve) => this.stateWaiters.set(key, resolve))
  }

  // reached records that a live execution (its input) is about to run state.
  reached(input, state) {
    const record = new DataSyncCommandSfnEvent({ context: { Execution: { Input: input }, StateMachine: {} } }).commandRecord
    const key = `${versionKey(record, record.version)}\n${state}`
    this.lastState.set(versionKey(record, record.version), state)
    this.progress++
    this.states.add(key)
    const resolve = this.stateWaiters.get(key)
    if (resolve) {
      this.stateWaiters.delete(key)
      resolve()
    }
  }

  // runExecution runs one execution of the command state machine; live
  // executions may wait for the previous version (live).
  async runExecution(exec, live = false) {
    const started = new Date().toISOString()
    const context = (state) => ({
      Execution: { Id: `${exec.arn.replace(':stateMachine:', ':execution:')}:${exec.name}`, Input: exec.input, Name: exec.name, StartTime: started },
      State: { Name: state, EnteredTime: new Date().toISOString(), RetryCount: 0 },
      StateMachine: { Id: exec.arn, Name: 'command' },
      Task: { Token: `token-${exec.name}-${state}` },
    })
    // A Lambda task: the framework's handler of DataSyncCommandSfnEvent.
    // Live, each invocation starts after a random 0-20 ms (Step Functions
    // and Lambda take their time), so the executions of one entity's
    // versions interleave differently from run to run.
    const invoke = async (state, input) => {
      if (live) {
        await jitter()
        this.reached(exec.input, state)
      }
      return this.sfnHandler.execute(new DataSyncCommandSfnEvent({ input, context: context(state), taskToken: context(state).Task.Token }))
    }
    // ending records how a live execution ended, for lostResumes.
    const ending = (how) => {
      if (!live) return
      const record = new DataSyncCommandSfnEvent({ input: exec.input, context: context('finish') }).commandRecord
      this.lastState.set(versionKey(record, record.version), how)
      this.progress++
    }
    try {
      const check = await invoke('check_version', exec.input)
      if (check.result === -1) {
        ending(`failed check_version: ${check.cause}`)
        this.sfnRuns.failed++
        return
      }
      let ready = check
      if (check.result !== 0 && !live) {
        // Executions run one at a time in stream order, so the previous
        // version is always done: waiting would be a harness bug.
        throw new Error(`check_version answered ${JSON.stringify(check)}: executions run in order, nothing should wait`)
      }
      if (check.result !== 0) {
        const record = new DataSyncCommandSfnEvent({ input: exec.input, context: context('wait_prev_command') }).commandRecord
        const waited = this.waitPrevious(record)
        await invoke('wait_prev_command', check)
        await waited
        await jitter()
        this.sfnRuns.waited++
        ready = { result: 'resumed_by_prev_version', prevVersion: record.version - 1 }
      }
      const record = live && new DataSyncCommandSfnEvent({ input: exec.input, context: context('set_ttl_command') }).commandRecord
      if (live && record.version > 1 && !this.ended.has(versionKey(record, record.version - 1))) this.sfnRuns.overlapped++
      const ttl = await invoke('set_ttl_command', ready)
      const hist = await invoke('history_copy', ttl)
      const handlers = await invoke('transform_data', hist)
      const synced = await Promise.all(handlers.map((h) => invoke('sync_data', h)))
      await invoke('finish', synced)
      if (live) this.ended.add(versionKey(record, record.version))
      ending('ended')
      this.sfnRuns.succeeded++
    } catch (err) {
      ending(`failed: ${err.name}: ${err.message}`)
      this.sfnRuns.failed++
      throw err
    }
  }
}

// LostResumeError is live's stall: the waits left (stalled:
// Framework.lostResumes) once nothing moves.
class LostResumeError extends Error {
  constructor(stalled) {
    super(`lost resume: nothing moves, ${stalled.length} waits left: ${JSON.stringify(stalled)}`)
    this.name = 'LostResumeError'
    this.stalled = stalled
  }
}

module.exports = { Framework, LostResumeError, asTenant, outsideRequests, addTenantHeader, tenantStore, invokeContext }
