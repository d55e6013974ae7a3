'use strict'
// The platform package's binary, shipped compressed (bin/dynamoemu.br),
// is written out whole at its first use: by eight processes at once each
// getting a binary that runs, with no half-written or temporary file
// left; into the user's cache (DYNAMOEMU_CACHE) when it cannot go beside
// the package's copy; and a damaged copy is refused with a message that
// says to reinstall. Runs in a project where dynamoemu and this
// machine's platform package are installed (npm/test.sh).
const { test } = require('node:test')
const assert = require('node:assert')
const { execFile } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { promisify } = require('node:util')
const { packages } = require('dynamoemu/platform.js')

const run = promisify(execFile)
const exe = process.platform === 'win32' ? 'dynamoemu.exe' : 'dynamoemu'
const manifest = require.resolve(`${packages[`${process.platform} ${process.arch}`]}/package.json`)
const dir = path.dirname(manifest)
const meta = JSON.parse(fs.readFileSync(manifest, 'utf8')).dynamoemu
const beside = path.join(dir, 'bin', exe)

// firstUse runs, in a fresh Node, binaryPath() and then the binary it
// names with -version; it resolves to that path.
async function firstUse(env = {}) {
  const { stdout } = await run(process.execPath, ['-e', `
    const bin = require('dynamoemu/platform.js').binaryPath()
    const v = require('node:child_process').execFileSync(bin, ['-version'], { encoding: 'utf8' }).trim()
    console.log(JSON.stringify({ bin, v }))`], { env: { ...process.env, ...env }, cwd: process.cwd() })
  return JSON.parse(stdout)
}

test('the package holds the binary compressed, with its size and digest', () => {
  assert.ok(meta && meta.size > 0 && /^[0-9a-f]{64}$/.test(meta.sha256), `package.json's dynamoemu: ${JSON.stringify(meta)}`)
  assert.ok(fs.statSync(path.join(dir, 'bin', `${exe}.br`)).size < meta.size / 2)
})

test('eight first uses at once each get the whole binary', async () => {
  fs.rmSync(beside, { force: true })
  const got = await Promise.all(Array.from({ length: 8 }, () => firstUse()))
  for (const g of got) {
    assert.strictEqual(g.bin, beside)
    assert.ok(g.v.length > 0, 'the binary answers -version')
  }
  assert.strictEqual(fs.statSync(beside).size, meta.size)
  assert.deepStrictEqual(fs.readdirSync(path.join(dir, 'bin')).sort(), [exe, `${exe}.br`].sort(), 'no temporary file is left')
})

test('a package folder that cannot take the binary sends it to the cache', async () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamoemu-cache-'))
  fs.rmSync(beside, { force: true })
  // A folder where the binary goes: no rename can put a file there, even
  // as root, as a read-only node_modules refuses it.
  fs.mkdirSync(beside)
  try {
    const g = await firstUse({ DYNAMOEMU_CACHE: cache })
    assert.strictEqual(g.bin, path.join(cache, meta.sha256.slice(0, 16), exe))
    assert.strictEqual(fs.statSync(g.bin).size, meta.size)
    const again = await firstUse({ DYNAMOEMU_CACHE: cache })
    assert.strictEqual(again.bin, g.bin, 'the cached binary is used again')
  } finally {
    fs.rmSync(beside, { recursive: true, force: true })
    fs.rmSync(cache, { recursive: true, force: true })
  }
})

test('a damaged package is refused, naming the fix', async () => {
  const br = path.join(dir, 'bin', `${exe}.br`)
  const saved = fs.readFileSync(br)
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamoemu-cache-'))
  fs.rmSync(beside, { force: true })
  try {
    fs.writeFileSync(br, saved.subarray(0, saved.length >> 1))
    await assert.rejects(firstUse({ DYNAMOEMU_CACHE: cache }), /reinstall the package/)
    assert.ok(!fs.existsSync(beside), 'nothing is written from a damaged package')
  } finally {
    fs.writeFileSync(br, saved)
    fs.rmSync(cache, { recursive: true, force: true })
  }
  assert.strictEqual((await firstUse()).bin, beside)
})
