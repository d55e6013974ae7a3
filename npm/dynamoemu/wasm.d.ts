/** Options of start() in 'dynamoemu/wasm'. */
export interface WasmStartOptions {
  /**
   * The engine: a WebAssembly.Module, its bytes, a Response or a URL to
   * fetch. In Node the default is the dynamoemu.wasm of @dynamoemu/wasm
   * (or the file DYNAMOEMU_WASM names); a page passes the URL it serves
   * that file at.
   */
  wasm?: WebAssembly.Module | BufferSource | Response | URL | string
  /** One database for every access key and region (-sharedDb). */
  sharedDb?: boolean
  /** More of the server's flags the engine takes: ['-ttlSweepInterval', '1s'] (a minute by default). */
  args?: string[]
  /** Gets each line the engine logs (default console.error). */
  log?: (line: string) => void
}

/** An SDK HttpRequest, as the handler reads it. */
export interface WasmHttpRequest {
  method: string
  hostname?: string
  path?: string
  query?: Record<string, string | string[] | null>
  headers: Record<string, string>
  body?: string | Uint8Array | ArrayBuffer
}

/** An SDK HttpResponse: the answer of the engine. */
export interface WasmHttpResponse {
  statusCode: number
  headers: Record<string, string>
  body: Uint8Array
}

/** The requestHandler of an AWS SDK v3 client (an HttpHandler). */
export interface WasmRequestHandler {
  handle(request: WasmHttpRequest, options?: { abortSignal?: { aborted: boolean } }): Promise<{ response: WasmHttpResponse }>
  updateHttpClientConfig(key: string, value: unknown): void
  httpHandlerConfigs(): Record<string, never>
  destroy(): void
}

/** An engine: an emulator inside this process, in memory, with no tables at start. */
export interface WasmEmulator {
  /** The endpoint of its clients ('http://wasm'): no request leaves the process. */
  endpoint: string
  /** new DynamoDBClient({ endpoint: emu.endpoint, requestHandler: emu.requestHandler, ... }) */
  requestHandler: WasmRequestHandler
  /** fetch() answered by the engine: fetch(emu.endpoint, { method: 'POST', headers, body }). */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>
  /** Takes a snapshot of every table; resolves its id. */
  snapshot(): Promise<string>
  /** Rewinds every table to a snapshot. */
  restore(id: string): Promise<void>
  /** Rewinds to the engine as it started: no tables. */
  reset(): Promise<void>
  /** Lets the engine go: later calls fail. */
  stop(): Promise<void>
}

/** Starts an engine: a new emulator in this process. */
export function start(options?: WasmStartOptions): Promise<WasmEmulator>

/** Compiles the engine once, to start many from it: start({ wasm: module }). */
export function compile(wasm: BufferSource | Response | URL | string): Promise<WebAssembly.Module>

/** In Node: the path of the engine's file (DYNAMOEMU_WASM, or @dynamoemu/wasm's). */
export function wasmPath(): string

/** The endpoint of an engine's clients. */
export const endpoint: string
