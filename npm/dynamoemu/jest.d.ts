// dynamoemu/jest: the Jest preset's set-up as functions, for a
// configuration with a globalSetup of its own (see docs/npm.md).

/** The set-up's options; each wins over its DYNAMOEMU_* variable and package.json's "dynamoemu" key. */
export interface TestOptions {
  port?: number
  dbPath?: string
  conventions?: string
  args?: string[]
  tables?: string
  tablePrefix?: string
  tableNaming?: 'framework'
  reset?: boolean
  isolate?: boolean
  /** 'test' (the default once a seed is given) or 'file': each test (or file) forks the seeded base, dropped after. */
  branch?: 'test' | 'file'
  seedItems?: string
  seedScript?: string
  seedModel?: string
  seedNamespace?: string
}

/** Starts the run's server (or, with reset, one per worker) and gives the workers its endpoint. */
export function globalSetup(globalConfig?: unknown, projectConfig?: unknown, options?: TestOptions): Promise<void>
/** Stops the servers globalSetup started. */
export function globalTeardown(): Promise<void>
/** This worker's isolation; returns what to run before each of its test files. */
export function setUpWorker(workerId?: string | number): () => Promise<unknown>
/** The path of the preset's setupFilesAfterEnv file. */
export const setupFile: string
