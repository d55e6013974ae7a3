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
    this.sfnRuns = { started: 0, succeeded: 0, failed: 0 }
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
    addTenantHeader(this.ddb.client)
    this.registry = new Map()
    const moduleRef = { get: (name) => this.registry.get(typeof name === 'string' ? name : name.name) }
    this.modules = {}
    for (const name of modules) this.modules[name] = this.buildModule(name, moduleRef)
    const sfnService = {
      startExecution: async (arn, input, name) => {
        this.executions.push({ arn, input: JSON.parse(JSON.stringify(input)), name })
        this.sfnRuns.started++
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

  // runExecution runs one execution of the command state machine.
  async runExecution(exec) {
    const started = new Date().toISOString()
    const context = (state) => ({
      Execution: { Id: `${exec.arn.replace(':stateMachine:', ':execution:')}:${exec.name}`, Input: exec.input, Name: exec.name, StartTime: started },
      State: { Name: state, EnteredTime: new Date().toISOString(), RetryCount: 0 },
      StateMachine: { Id: exec.arn, Name: 'command' },
      Task: { Token: `token-${exec.name}-${state}` },
    })
    // A Lambda task: the framework's handler of DataSyncCommandSfnEvent.
    const invoke = (state, input) =>
      this.sfnHandler.execute(new DataSyncCommandSfnEvent({ input, context: context(state), taskToken: context(state).Task.Token }))
    try {
      const check = await invoke('check_version', exec.input)
      if (check.result === -1) {
        this.sfnRuns.failed++
        return
      }
      if (check.result !== 0) {
        // Executions run one at a time in stream order, so the previous
        // version is always done: waiting would be a harness bug.
        throw new Error(`check_version answered ${JSON.stringify(check)}: executions run in order, nothing should wait`)
      }
      const ttl = await invoke('set_ttl_command', check)
      const hist = await invoke('history_copy', ttl)
      const handlers = await invoke('transform_data', hist)
      const synced = await Promise.all(handlers.map((h) => invoke('sync_data', h)))
      await invoke('finish', synced)
      this.sfnRuns.succeeded++
    } catch (err) {
      this.sfnRuns.failed++
      throw err
    }
  }
}

module.exports = { Framework, asTenant, outsideRequests, addTenantHeader, tenantStore, invokeContext }
