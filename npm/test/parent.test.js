'use strict'
// No server outlives the Node process that started it: SIGKILL of a
// process that called start() (which cannot run a handler) leaves no
// server (the server watches its -parentPid); SIGTERM of npx running
// `npx dynamoemu` stops the server (the wrapper forwards it, or sees
// that npx is gone); SIGKILL of npm exec (a CI runner cancelling a job),
// of the shell npm runs the wrapper with, or of the wrapper, leaves no
// server 2 s later; nor does SIGKILL of the Node process of Jest or Vitest
// whose global set-up started it. Checked by pid; Linux (/proc) only.
const { test } = require('node:test')
const assert = require('node:assert')
const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const linux = process.platform === 'linux'

// alive reports whether pid runs (a zombie nobody reaped has exited).
function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

// scale is DYNAMOEMU_TEST_TIMEOUT_SCALE (1 when unset).
const scale = Number(process.env.DYNAMOEMU_TEST_TIMEOUT_SCALE) > 0 ? Number(process.env.DYNAMOEMU_TEST_TIMEOUT_SCALE) : 1

// waitGone resolves once pid has exited, and fails after bound ms.
async function waitGone(pid, bound = 60000) {
  const end = Date.now() + bound
  while (alive(pid)) {
    if (Date.now() > end) {
      process.kill(pid, 'SIGKILL')
      assert.fail(`server ${pid} still runs ${bound} ms after its parent went`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

// descendants lists the pids below pid (from /proc's parent links).
function descendants(pid) {
  const kids = new Map()
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (!kids.has(ppid)) kids.set(ppid, [])
      kids.get(ppid).push(Number(d))
    } catch {}
  }
  const out = []
  const walk = (p) => { for (const k of kids.get(p) ?? []) { out.push(k); walk(k) } }
  walk(pid)
  return out
}

// comm is a process's command name.
const comm = (pid) => { try { return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() } catch { return '' } }

test('SIGKILL of the Node parent leaves no server', { skip: !linux && 'needs /proc' }, async () => {
  const node = spawn(process.execPath, ['-e', `
    require('dynamoemu').start().then((emu) => console.log(emu.process.pid))
    setInterval(() => {}, 1000)`], { stdio: ['ignore', 'pipe', 'inherit'] })
  const pid = await new Promise((resolve, reject) => {
    let out = ''
    node.stdout.on('data', (c) => { out += c; if (out.includes('\n')) resolve(Number(out.trim())) })
    node.on('exit', (code) => reject(new Error(`node exited (${code}) before its server started`)))
  })
  assert.ok(alive(pid), `server ${pid} runs`)
  node.kill('SIGKILL')
  await waitGone(pid)
})

test('SIGTERM of npx dynamoemu leaves no server', { skip: !linux && 'needs /proc' }, async () => {
  const npx = spawn('npx', ['--no-install', 'dynamoemu', '-port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] })
  await new Promise((resolve, reject) => {
    let log = ''
    npx.stderr.on('data', (c) => { log += c; if (log.includes('dynamoemu listening')) resolve() })
    npx.on('exit', (code) => reject(new Error(`npx exited (${code}) before the server listened: ${log}`)))
  })
  npx.stderr.resume()
  const servers = descendants(npx.pid).filter((p) => comm(p) === 'dynamoemu')
  assert.equal(servers.length, 1, `one server below npx: ${execFileSync('ps', ['-ef'], { encoding: 'utf8' })}`)
  npx.kill('SIGTERM')
  await waitGone(servers[0])
})

// npxServer runs `npx dynamoemu -port 0` and resolves, once it listens,
// with npm exec's pid (npx's own process), the shell's, the wrapper's and
// the server's.
async function npxServer() {
  const npx = spawn('npx', ['--no-install', 'dynamoemu', '-port', '0', '-mcp=false'], { stdio: ['ignore', 'ignore', 'pipe'] })
  await new Promise((resolve, reject) => {
    let log = ''
    npx.stderr.on('data', (c) => { log += c; if (log.includes('dynamoemu listening')) resolve() })
    npx.on('exit', (code) => reject(new Error(`npx exited (${code}) before the server listened: ${log}`)))
  })
  npx.stderr.resume()
  const below = descendants(npx.pid)
  const pick = (name) => below.filter((p) => comm(p) === name)
  const ps = () => execFileSync('ps', ['-ef', '--forest'], { encoding: 'utf8' })
  assert.equal(pick('dynamoemu').length, 1, `one server below npx: ${ps()}`)
  assert.equal(pick('node').length, 1, `one wrapper below npx: ${ps()}`)
  assert.equal(pick('sh').length, 1, `one shell below npx: ${ps()}`)
  return { npx, npm: npx.pid, shell: pick('sh')[0], wrapper: pick('node')[0], server: pick('dynamoemu')[0] }
}

for (const victim of ['npm', 'shell', 'wrapper']) {
  test(`SIGKILL of ${victim === 'npm' ? 'npm exec' : `npx's ${victim}`} leaves no server 2 s later`, { skip: !linux && 'needs /proc' }, async () => {
    const chain = await npxServer()
    process.kill(chain[victim], 'SIGKILL')
    await waitGone(chain.server, 2000 * scale)
    for (const p of [chain.shell, chain.wrapper]) await waitGone(p, 2000 * scale)
  })
}

// runner starts a test runner in dir (its bin run by this Node, so that
// the pid is the runner's own process) whose global set-up starts the
// server, and resolves with the runner and the server's pid.
async function runner(dir, bin, args) {
  const r = spawn(process.execPath, [bin, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  r.stdout.on('data', (c) => { out += c })
  r.stderr.on('data', (c) => { out += c })
  const end = Date.now() + 120000 * scale
  for (;;) {
    const servers = descendants(r.pid).filter((p) => comm(p) === 'dynamoemu')
    if (servers.length === 1 && fs.existsSync(`${dir}/started`)) return { r, server: servers[0] }
    if (r.exitCode !== null) assert.fail(`the runner exited (${r.exitCode}) before its test started: ${out}`)
    if (Date.now() > end) { r.kill('SIGKILL'); assert.fail(`no server under the runner: ${out}`) }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

// killRunner runs the runner, SIGKILLs its Node process once its test
// runs, and checks the server is gone 2 s later. The runner's own
// workers, which a SIGKILL leaves running (Vitest's forks), are killed
// after, as is the scratch directory removed.
async function killRunner(dir, bin, args) {
  try {
    const { r, server } = await runner(dir, bin, args)
    const workers = descendants(r.pid).filter((p) => p !== server)
    r.kill('SIGKILL')
    await waitGone(server, 2000 * scale)
    for (const w of workers) try { process.kill(w, 'SIGKILL') } catch {}
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// A test that says it started, then waits to be killed.
const waiting = `test('waits', async () => {
  require('node:fs').writeFileSync(require('node:path').join(process.cwd(), 'started'), '')
  await new Promise((resolve) => setTimeout(resolve, 600000))
}, 700000)
`

test('SIGKILL of Jest\'s Node leaves no server 2 s later', { skip: !linux && 'needs /proc' }, async () => {
  const dir = fs.mkdtempSync('killjest-')
  fs.writeFileSync(`${dir}/jest.config.js`, "module.exports = { preset: 'dynamoemu', testMatch: ['**/*.wait.test.js'] }\n")
  fs.writeFileSync(`${dir}/a.wait.test.js`, waiting)
  await killRunner(dir, path.join(path.dirname(require.resolve('jest/package.json')), 'bin', 'jest.js'), ['--ci', '--rootDir', '.'])
})

test('SIGKILL of Vitest\'s Node leaves no server 2 s later', { skip: !linux && 'needs /proc' }, async () => {
  const dir = fs.mkdtempSync('killvitest-')
  fs.writeFileSync(`${dir}/vitest.config.mjs`, "export default { test: { include: ['**/*.wait.test.mjs'], globalSetup: ['dynamoemu/vitest'], testTimeout: 700000 } }\n")
  fs.writeFileSync(`${dir}/a.wait.test.mjs`, "import { test } from 'vitest'\n" + waiting.replace("require('node:fs')", "(await import('node:fs'))").replace("require('node:path')", "(await import('node:path'))").replace(', 700000)', ')'))
  await killRunner(dir, path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs'), ['run'])
})
