'use strict'
// No server outlives the Node process that started it: SIGKILL of a
// process that called start() (which cannot run a handler) leaves no
// server (the server watches its -parentPid), and SIGTERM of npx running
// `npx dynamoemu` stops the server (the wrapper forwards it, or sees
// that npx is gone). Checked by pid; Linux (/proc) only.
const { test } = require('node:test')
const assert = require('node:assert')
const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')

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
