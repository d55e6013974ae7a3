'use strict'
// 'dynamoemu/wasm' in Node: wasm.js with the engine's file as the
// default, the dynamoemu.wasm of the @dynamoemu/wasm package (or the file
// DYNAMOEMU_WASM names), compiled once a process. The package holds it
// compressed with brotli (dynamoemu.wasm.br: 4.3 MB to download, npm's
// gzip of the file was 6.1 MB); its first use writes it out beside the
// compressed copy, or into DYNAMOEMU_CACHE (else the user's cache), as
// platform.js does the server's binary.
const fs = require('node:fs')
const path = require('node:path')
const { webcrypto } = require('node:crypto')
const core = require('./wasm.js')
const { unpacked } = require('./platform.js')
const { version } = require('./package.json')

// wasmPath is the engine's file: DYNAMOEMU_WASM, or @dynamoemu/wasm's.
function wasmPath() {
  if (process.env.DYNAMOEMU_WASM) return process.env.DYNAMOEMU_WASM
  let manifest
  try {
    manifest = require.resolve('@dynamoemu/wasm/package.json')
  } catch {
    throw new Error(`dynamoemu/wasm: the engine is in the package @dynamoemu/wasm, which is not installed: npm install --save-dev @dynamoemu/wasm@${version}`)
  }
  const dir = path.dirname(manifest)
  const meta = JSON.parse(fs.readFileSync(manifest, 'utf8')).dynamoemu
  if (!meta) return path.join(dir, 'dynamoemu.wasm') // a package of before the compression
  return unpacked(dir, meta.file, meta, 'engine')
}

const compiled = new Map() // file -> a promise of its module

// start is wasm.js's start, the engine defaulting to wasmPath()'s.
async function start(opts = {}) {
  opts = { random: (b) => webcrypto.getRandomValues(b), ...opts }
  if (opts.wasm !== undefined) return core.start(opts)
  const file = wasmPath()
  if (!compiled.has(file)) {
    const module = fs.promises.readFile(file).then((bytes) => core.compile(bytes))
    module.catch(() => compiled.delete(file))
    compiled.set(file, module)
  }
  return core.start({ ...opts, wasm: await compiled.get(file) })
}

module.exports = { ...core, start, wasmPath }
