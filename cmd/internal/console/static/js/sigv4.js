// AWS Signature Version 4 for the console's calls, when the server
// verifies signatures (dynamoemu -credentials): the canonical request,
// the string to sign and the signing key, as AWS's SigV4 documentation
// describes them. SHA-256 and HMAC are written out here rather than taken
// from crypto.subtle, which browsers offer only on https:// and localhost
// pages, while a team's server is often reached over plain http.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const utf8 = (s) => new TextEncoder().encode(s);

/** sha256 returns the SHA-256 digest (FIPS 180-4) of the bytes b. */
export function sha256(b) {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian).
  const n = Math.ceil((b.length + 9) / 64) * 64;
  const m = new Uint8Array(n);
  m.set(b);
  m[b.length] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(n - 8, Math.floor(b.length / 0x20000000));
  view.setUint32(n - 4, (b.length * 8) >>> 0);
  const w = new Uint32Array(64);
  const rotr = (x, r) => (x >>> r) | (x << (32 - r));
  for (let off = 0; off < n; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, bb, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = bb; bb = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(4 * i, h[i]);
  return out;
}

/** hmac returns HMAC-SHA256 (RFC 2104) of the bytes msg under the bytes key. */
export function hmac(key, msg) {
  if (key.length > 64) key = sha256(key);
  const inner = new Uint8Array(64 + msg.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    const k = key[i] || 0;
    inner[i] = k ^ 0x36;
    outer[i] = k ^ 0x5c;
  }
  inner.set(msg, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/** hex writes bytes in lower-case hex. */
export const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** uriEncode percent-encodes all but the unreserved bytes (and "/" with keepSlash). */
function uriEncode(s, keepSlash) {
  let out = "";
  for (const byte of utf8(s)) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c) || (keepSlash && c === "/")) out += c;
    else out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** canonicalQuery sorts and encodes a query string as SigV4 has it. */
function canonicalQuery(query) {
  if (!query) return "";
  return query.split("&").filter(Boolean).map((p) => {
    const i = p.indexOf("=");
    const dec = (s) => decodeURIComponent(s.replace(/\+/g, " "));
    return [uriEncode(dec(i < 0 ? p : p.slice(0, i)), false), uriEncode(dec(i < 0 ? "" : p.slice(i + 1)), false)];
  }).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`).join("&");
}

const pad = (n) => String(n).padStart(2, "0");

/**
 * sign returns the headers that sign a request: X-Amz-Date and
 * Authorization. url is the request's path and query on host (the page's
 * own); headers are the request's headers to sign besides host and
 * X-Amz-Date (Content-Type, X-Amz-Target); body is its text.
 */
export function sign({ method, url, host, headers, body, accessKey, secret, region, service = "dynamodb", now = new Date() }) {
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const stamp = `${date}T${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}Z`;
  const all = { host, "x-amz-date": stamp };
  for (const [k, v] of Object.entries(headers)) all[k.toLowerCase()] = String(v).trim().replace(/\s+/g, " ");
  const names = Object.keys(all).sort();
  const [path, query] = url.split("?", 2);
  const canonical = [method, uriEncode(path || "/", true), canonicalQuery(query),
    names.map((n) => `${n}:${all[n]}\n`).join(""), names.join(";"), hex(sha256(utf8(body || "")))].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", stamp, scope, hex(sha256(utf8(canonical)))].join("\n");
  let key = hmac(utf8("AWS4" + secret), utf8(date));
  key = hmac(key, utf8(region));
  key = hmac(key, utf8(service));
  key = hmac(key, utf8("aws4_request"));
  return {
    "X-Amz-Date": stamp,
    Authorization: `AWS4-HMAC-SHA256 Credential=${accessKey}/${scope}, SignedHeaders=${names.join(";")}, Signature=${hex(hmac(key, utf8(toSign)))}`,
  };
}
