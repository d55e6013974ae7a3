'use strict'
// The engine in a web page (npm/test.sh runs this with node --test in
// the scratch project where dynamoemu and @dynamoemu/wasm are installed
// from their tarballs): wasm-page.mjs and the AWS SDK v3 bundled by
// esbuild, served from 127.0.0.1 with the engine's file, loaded by
// headless Chromium (Debian's, or the one CHROMIUM names) through
// playwright-core. The page's Query answer is checked here.
const test = require('node:test')
const assert = require('node:assert')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const esbuild = require('esbuild')
const { chromium } = require('playwright-core')
const { wasmPath } = require('dynamoemu/wasm')

// chromiumPath is the browser to drive: CHROMIUM, or chromium on PATH.
function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, 'chromium')
    if (fs.existsSync(p)) return p
  }
  throw new Error('no chromium on PATH (apt-get install -y chromium), nor CHROMIUM naming one')
}

// serve answers the page's three files on a free port of 127.0.0.1.
async function serve(files) {
  const srv = http.createServer((req, res) => {
    const f = files[req.url]
    if (!f) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': f.type }).end(f.body)
  })
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  return srv
}

test('a page runs the engine and the SDK: CreateTable, PutItem, Query', async () => {
  const bundle = await esbuild.build({
    entryPoints: [path.join(__dirname, 'wasm-page.mjs')], bundle: true, platform: 'browser', format: 'iife',
    target: 'es2022', write: false, logLevel: 'error',
  })
  const srv = await serve({
    '/': { type: 'text/html', body: '<!doctype html><title>dynamoemu/wasm</title><pre id="result"></pre><script src="/page.js"></script>' },
    '/page.js': { type: 'text/javascript', body: bundle.outputFiles[0].contents },
    '/dynamoemu.wasm': { type: 'application/wasm', body: fs.readFileSync(wasmPath()) },
  })
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  try {
    const page = await browser.newPage()
    const errors = []
    page.on('pageerror', (err) => errors.push(err.message))
    await page.goto(`http://127.0.0.1:${srv.address().port}/`)
    await page.waitForFunction(() => document.getElementById('result').textContent !== '', null, { timeout: 180000 })
    const result = JSON.parse(await page.textContent('#result'))
    assert.deepStrictEqual(errors, [])
    assert.deepStrictEqual(result, { count: 2, items: [['order#2', '20'], ['order#3', '30']] })
  } finally {
    await browser.close()
    srv.close()
  }
})
