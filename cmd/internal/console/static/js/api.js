// The console's only way to the emulator: the DynamoDB JSON protocol at the
// API path (POST, X-Amz-Target) and the admin endpoints, both on the page's
// own origin.
//
// The emulator picks a database (a namespace) by the access key id and
// region of the SigV4 credential scope in the Authorization header. By
// default it parses the signature away and never verifies it, so the
// console sends a header of SigV4's shape with the chosen key and region
// and a signature of zeros: no secret key is asked for or needed. A server
// started with -credentials verifies signatures (config.signatures): the
// console then asks for the key's secret, keeps it for the browser tab
// only (sessionStorage), and signs every call, the admin endpoints' too
// (sigv4.js).

import { sign } from "./sigv4.js";

/** The page's configuration (config.json, written by the Go handler). */
export const config = { prefix: "./", apiPath: "/", adminPath: "/dynamoemu", sharedDb: false, version: "", signatures: false };

/** loadConfig reads config.json next to the page. */
export async function loadConfig() {
  const res = await fetch("config.json", { cache: "no-cache" });
  if (res.ok) Object.assign(config, await res.json());
  return config;
}

const NS_KEY = "dynamoemu.console.namespace";
const RECENT_KEY = "dynamoemu.console.recent";

const SECRET_KEY = "dynamoemu.console.secret";

/** The namespace in use: an access key id, a region, and with signatures the key's secret. */
export const namespace = { accessKey: "local", region: "us-east-1", secret: "" };
try {
  const saved = JSON.parse(localStorage.getItem(NS_KEY) || "null");
  if (saved && validAccessKey(saved.accessKey) && validRegion(saved.region)) Object.assign(namespace, { accessKey: saved.accessKey, region: saved.region });
  const secret = JSON.parse(sessionStorage.getItem(SECRET_KEY) || "null");
  if (secret && secret.accessKey === namespace.accessKey && typeof secret.secret === "string") namespace.secret = secret.secret;
} catch { /* no storage: the default */ }

/** namespaceID is the namespace's ID as the admin endpoints name it: "AKID/region", or "shared" (-sharedDb). */
export function namespaceID() { return config.sharedDb ? "shared" : `${namespace.accessKey}/${namespace.region}`; }

/**
 * validAccessKey: letters and digits, 1 to 128 of them, as the emulator
 * takes them (emulator/auth.go; other keys are UnrecognizedClientException).
 */
export function validAccessKey(k) { return typeof k === "string" && /^[A-Za-z0-9]{1,128}$/.test(k); }

/** validRegion: something that fits in a credential scope. */
export function validRegion(r) { return typeof r === "string" && /^[A-Za-z0-9-]{1,64}$/.test(r); }

/**
 * setNamespace switches the namespace and remembers it (and the last few);
 * secret, with signatures, is kept for this tab only.
 */
export function setNamespace(accessKey, region, secret = "") {
  namespace.accessKey = accessKey;
  namespace.region = region;
  namespace.secret = secret;
  try {
    if (secret) sessionStorage.setItem(SECRET_KEY, JSON.stringify({ accessKey, secret }));
    else sessionStorage.removeItem(SECRET_KEY);
    localStorage.setItem(NS_KEY, JSON.stringify({ accessKey, region }));
    const recent = recentNamespaces().filter((n) => n.accessKey !== accessKey || n.region !== region);
    recent.unshift({ accessKey, region });
    localStorage.setItem(RECENT_KEY, JSON.stringify(recent.slice(0, 8)));
  } catch { /* private mode: not remembered */ }
}

/** recentNamespaces returns the namespaces used last, most recent first. */
export function recentNamespaces() {
  try {
    const r = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(r) ? r.filter((n) => validAccessKey(n.accessKey) && validRegion(n.region)) : [];
  } catch { return []; }
}

/** ApiError is an error answer: its __type (without the namespace), message and status. */
export class ApiError extends Error {
  constructor(type, message, status) {
    super(message || type);
    this.type = type;
    this.status = status;
  }
}

const pad = (n) => String(n).padStart(2, "0");

/** amzDate returns [X-Amz-Date, the credential scope's date] for t. */
function amzDate(t) {
  const d = `${t.getUTCFullYear()}${pad(t.getUTCMonth() + 1)}${pad(t.getUTCDate())}`;
  return [`${d}T${pad(t.getUTCHours())}${pad(t.getUTCMinutes())}${pad(t.getUTCSeconds())}Z`, d];
}

/**
 * authHeaders returns the headers that name the namespace: a real
 * signature of the request (method, path and query, headers, body) when
 * the server verifies them, else SigV4's shape with a signature of zeros.
 */
export function authHeaders({ method = "POST", url = config.apiPath, headers = {}, body = "", service = "dynamodb" } = {}, t = new Date()) {
  if (config.signatures) {
    return sign({ method, url, host: location.host, headers, body, accessKey: namespace.accessKey,
      secret: namespace.secret, region: namespace.region, service, now: t });
  }
  const [stamp, date] = amzDate(t);
  return {
    "X-Amz-Date": stamp,
    Authorization: `AWS4-HMAC-SHA256 Credential=${namespace.accessKey}/${date}/${namespace.region}/dynamodb/aws4_request, ` +
      `SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=${"0".repeat(64)}`,
  };
}

/** The last calls, newest first, for the activity list. */
export const activity = [];
const listeners = new Set();
/** onActivity calls fn after every call. */
export function onActivity(fn) { listeners.add(fn); return () => listeners.delete(fn); }

function record(entry) {
  activity.unshift(entry);
  if (activity.length > 100) activity.length = 100;
  for (const fn of listeners) fn(entry);
}

/**
 * call sends one DynamoDB operation ("Query") or, with streams, one
 * DynamoDB Streams operation, and returns the decoded answer. An error
 * answer throws an ApiError.
 */
export async function call(op, input = {}, { streams = false } = {}) {
  const target = (streams ? "DynamoDBStreams_20120810." : "DynamoDB_20120810.") + op;
  const started = performance.now();
  const payload = JSON.stringify(input);
  const headers = { "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": target };
  let res;
  try {
    res = await fetch(config.apiPath, {
      method: "POST",
      headers: { ...headers, ...authHeaders({ url: config.apiPath, headers, body: payload }) },
      body: payload,
      cache: "no-store",
    });
  } catch (err) {
    record({ op, status: 0, ms: performance.now() - started, error: "network" });
    throw new ApiError("NetworkError", `the emulator did not answer (${err.message})`, 0);
  }
  const text = await res.text();
  const ms = performance.now() - started;
  let body = {};
  try { body = text ? JSON.parse(text) : {}; } catch { body = { message: text }; }
  if (!res.ok) {
    const type = String(body.__type || `HTTP ${res.status}`).split("#").pop();
    record({ op, status: res.status, ms, error: type });
    throw new ApiError(type, body.message || body.Message || text, res.status);
  }
  record({ op, status: res.status, ms });
  return body;
}

/**
 * admin calls an admin endpoint (path below the admin path: "/clock").
 * A state-changing call sends Content-Type application/json, which the
 * emulator requires of them (emulator/admin_guard.go).
 */
export function admin(method, path, body) { return ownCall(config.adminPath + path, method, path, body); }

/** LAMBDA_PATH is Lambda's event source mapping API on the server (emulator/stream_handlers.go). */
const LAMBDA_PATH = "/2015-03-31/event-source-mappings";

/**
 * lambda calls Lambda's event source mapping API (path below it:
 * "/UUID"), guarded as the admin endpoints are (JSON, same origin);
 * with signatures, signed for the service lambda, as Lambda's clients sign.
 */
export function lambda(method, path, body) { return ownCall(LAMBDA_PATH + path, method, LAMBDA_PATH + path, body, "lambda"); }

/**
 * ownCall calls one of the server's own endpoints at url (not the
 * DynamoDB API); label names it in the activity, service is the signing
 * name with signatures.
 */
async function ownCall(url, method, label, body, service = "dynamodb") {
  const init = { method, cache: "no-store", headers: {} };
  if (method !== "GET") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body ?? {});
  }
  if (config.signatures) {
    // A server with -credentials takes admin calls signed by one of its keys.
    Object.assign(init.headers, authHeaders({ method, url, headers: { ...init.headers }, body: init.body || "", service }));
  }
  const started = performance.now();
  let res;
  try {
    res = await fetch(url, init);
  } catch (err) {
    throw new ApiError("NetworkError", `the emulator did not answer (${err.message})`, 0);
  }
  const text = await res.text();
  let out = {};
  try { out = text ? JSON.parse(text) : {}; } catch { out = { message: text }; }
  record({ op: `${method} ${label}`, status: res.status, ms: performance.now() - started, error: res.ok ? undefined : String(out.__type || res.status).split("#").pop() });
  if (!res.ok) throw new ApiError(String(out.__type || res.headers.get("x-amzn-errortype") || `HTTP ${res.status}`).split("#").pop(), out.message || out.Message || text, res.status);
  return out;
}

/** listAllTables follows ListTables' pages. */
export async function listAllTables() {
  const names = [];
  let start;
  do {
    const out = await call("ListTables", start ? { ExclusiveStartTableName: start, Limit: 100 } : { Limit: 100 });
    names.push(...(out.TableNames || []));
    start = out.LastEvaluatedTableName;
  } while (start);
  return names;
}

/** describe returns a table's description, tags and TTL at once. */
export async function describe(name) {
  const { Table } = await call("DescribeTable", { TableName: name });
  const [tags, ttl] = await Promise.all([
    listAllTags(Table.TableArn).catch(() => []),
    call("DescribeTimeToLive", { TableName: name }).then((o) => o.TimeToLiveDescription).catch(() => null),
  ]);
  return { table: Table, tags, ttl };
}

async function listAllTags(arn) {
  const tags = [];
  let next;
  do {
    const out = await call("ListTagsOfResource", next ? { ResourceArn: arn, NextToken: next } : { ResourceArn: arn });
    tags.push(...(out.Tags || []));
    next = out.NextToken;
  } while (next);
  return tags;
}
