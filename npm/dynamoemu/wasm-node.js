'use strict'
// 'dynamoemu/wasm' in Node: wasm.js with the engine's file as the
// default, the dynamoemu.wasm of the @dynamoemu/wasm package (or the file
// DYNAMOEMU_WASM names), compiled once a process.
const fs = require('node:fs')
const { webcrypto } = require('node:crypto')
const core = require('./wasm.js')
const { version } = require('./package.json')

// wasmPath is the engine's file: DYNAMOEMU_WASM, or @dynamoemu/wasm's.
function wasmPath() {
  if (process.env.DYNAMOEMU_WASM) return process.env.DYNAMOEMU_WASM
  try {
    return require.resolve('@dynamoemu/wasm/dynamoemu.wasm')
  } catch {
    throw new Error(`dynamoemu/wasm: the engine is in the package @dynamoemu/wasm, which is not installed: npm install --save-dev @dynamoemu/wasm@${version}`)
  }
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
