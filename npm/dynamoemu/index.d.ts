import type { ChildProcess } from 'node:child_process'

/** Options of start(). */
export interface StartOptions {
  /** The port to listen on; 0 (the default) picks a free one. */
  port?: number
  /** The address to listen on (default 127.0.0.1). */
  host?: string
  /** Keep the data in this directory (the server's -dbPath). */
  dbPath?: string
  /** One database for every access key and region (-sharedDb). */
  sharedDb?: boolean
  /** A conventions configuration file (-conventions). */
  conventions?: string
  /** Where stream handlers are invoked (-lambdaEndpoint): serverless-offline's lambda port. */
  lambdaEndpoint?: string
  /** A file of event source mappings (-eventSourceMappings). */
  eventSourceMappings?: string
  /**
   * 'fuzz:SEED': consistency fuzzing (-consistency): GSI reads, eventually
   * consistent reads and stream records lag by seeded amounts within a
   * second, and stale reads are reported (staleReads). 'strong' or unset:
   * off, unless the server's DYNAMOEMU_CONSISTENCY says otherwise.
   */
  consistency?: string
  /** More flags, as the server takes them: ['-delayTransientStatuses']. */
  args?: string[]
  /** Environment of the server, added to this process's. */
  env?: Record<string, string>
  /** How long the server may take to start (default 60000). */
  timeoutMs?: number
  /**
   * With args ['-credentials', FILE] (signatures verified), one of the
   * file's adminTokens: the snapshot calls send it.
   */
  adminToken?: string
}

/** A running server. */
export interface Emulator {
  /** Its URL: the endpoint of a DynamoDB client. */
  endpoint: string
  port: number
  process: ChildProcess
  /** What the server has logged so far. */
  log(): string
  /** Takes a snapshot of every table; resolves its id. */
  snapshot(): Promise<string>
  /** Rewinds every table to a snapshot. */
  restore(id: string): Promise<void>
  /** Rewinds to the server as it started: no tables. */
  reset(): Promise<void>
  /**
   * Forks a namespace into a new branch in O(1), whatever it holds. A
   * client made with the branch's credentials, or given to use(), reaches
   * it; its writes are seen by no other namespace. base: the namespace's
   * credentials or its ID ('AKID/us-east-1'; 'shared' with sharedDb).
   */
  branch(base: { accessKeyId: string; region?: string } | string, name?: string): Promise<Branch>
  /**
   * Consistency fuzzing's report: every read that returned data older
   * than a committed write, with the writes it missed. reset: then forget
   * them.
   */
  staleReads(options?: { reset?: boolean }): Promise<ConsistencyReport>
  /**
   * Fills a namespace once, for branches to fork: tables (CreateTable
   * inputs, or the path of a JSON file or directory of them), items (a
   * directory of TABLE.json files, DynamoDB JSON or plain JSON), then
   * script (a function, or a module's path, called with the base's
   * endpoint, region and credentials).
   */
  seed(base: { accessKeyId: string; region?: string }, seed: {
    tables?: Record<string, unknown>[] | string
    items?: string
    script?: string | ((ctx: { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } }) => unknown)
  }): Promise<void>
  /**
   * Resolves once every stream handler (event source mapping) handled
   * every record written before the call; rejects after timeoutMs
   * (30000), naming the mappings still behind.
   */
  drainStreams(options?: { timeoutMs?: number }): Promise<void>
  /** Lambda's CreateEventSourceMapping (TableName may stand for EventSourceArn). */
  createEventSourceMapping(mapping: Record<string, unknown>): Promise<Record<string, unknown>>
  /** Lambda's DeleteEventSourceMapping. */
  deleteEventSourceMapping(uuid: string): Promise<Record<string, unknown>>
  /**
   * Calls handler in this process with each batch ({Records: [...]}) of
   * a stream; a throw is a function error, the value returned the
   * function's answer. Resolves the mapping's UUID.
   */
  onStream(mapping: Record<string, unknown>, handler: (event: { Records: any[] }) => unknown): Promise<string>
  /** Stops the server (SIGTERM) and resolves once it exited. */
  stop(): Promise<void>
}

/** A key in DynamoDB JSON: { pk: { S: 'a' } }. */
export type ReportKey = Record<string, Record<string, string>>

/** Consistency fuzzing's report (GET /dynamoemu/consistency). */
export interface ConsistencyReport {
  /** 'fuzz', or 'strong' (no fuzzing: nothing is reported). */
  mode: string
  seed: number
  staleReads: StaleRead[]
  /** Stale reads past the ten thousand kept. */
  dropped: number
}

/** A read that returned data older than a committed write. */
export interface StaleRead {
  n: number
  op: string
  /** The namespace read ('AKID/region', 'shared'; a branch's own). */
  namespace: string
  table: string
  /** The GSI or LSI read (absent: the table). */
  index?: string
  /** What lagged: 'table' (eventually consistent reads), 'index' (a GSI) or 'stream'. */
  view: string
  /** The key condition read (absent: a Scan or a stream). */
  key?: ReportKey
  at: string
  missed: { commit: number; op: string; key: ReportKey; event?: string; at: string }[]
}

/** A branch made by Emulator.branch. */
export interface Branch {
  name: string
  namespace: string
  /** The branch's access key; undefined with sharedDb, where the header alone reaches it. */
  credentials?: { accessKeyId: string; secretAccessKey: string }
  /** The X-Dynamoemu-Branch header that sends a request to the branch. */
  headers: { 'x-dynamoemu-branch': string }
  /** Adds a middleware to an AWS SDK v3 client that sends every request to the branch; returns the client. */
  use<C extends { middlewareStack: { add: (...args: any[]) => unknown } }>(client: C): C
  /** Drops the branch and what only it holds. */
  drop(): Promise<void>
}

/** Starts a server as a child process; it is killed when this process exits. */
export function start(options?: StartOptions): Promise<Emulator>

/** The path of the server's binary for this machine (or DYNAMOEMU_BINARY). */
export function binaryPath(): string
