'use strict'
// Which package holds the server's binary for this machine. Each is an
// optional dependency of this one, installed only where its "os" and
// "cpu" match (the pattern esbuild uses): no download at install time,
// no postinstall script.
//
// A platform package holds the binary compressed with brotli
// (bin/dynamoemu.br: about four fifths of npm's gzip of the binary, so a
// fifth less to download; npm/build.sh), and its package.json names the
// binary's size and SHA-256. The first use writes the binary beside it
// (bin/dynamoemu), or, where the package's folder cannot be written (a
// read-only node_modules), into the user's cache (DYNAMOEMU_CACHE, else
// the platform's); a file of another size is written again. Writers that race each write a file of
// their own and rename it into place, so a reader never sees half a
// binary. @dynamoemu/wasm's engine (dynamoemu.wasm.br) is unpacked the
// same way (wasm-node.js).
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')

const packages = {
  'linux x64': '@dynamoemu/linux-x64',
  'linux arm64': '@dynamoemu/linux-arm64',
  'darwin x64': '@dynamoemu/darwin-x64',
  'darwin arm64': '@dynamoemu/darwin-arm64',
  'win32 x64': '@dynamoemu/win32-x64',
}

// binaryPath returns the path of the server's binary: DYNAMOEMU_BINARY
// when set, else the one in this machine's platform package. It throws
// an error that names the package to install when there is none.
function binaryPath() {
  if (process.env.DYNAMOEMU_BINARY) return process.env.DYNAMOEMU_BINARY
  const key = `${process.platform} ${process.arch}`
  const pkg = packages[key]
  if (!pkg) {
    throw new Error(`dynamoemu: no server binary is built for ${process.platform}-${process.arch}; ` +
      `the platforms are ${Object.keys(packages).map((k) => k.replace(' ', '-')).join(', ')} (or set DYNAMOEMU_BINARY to a dynamoemu you built)`)
  }
  const exe = process.platform === 'win32' ? 'dynamoemu.exe' : 'dynamoemu'
  let manifest, meta
  try {
    manifest = require.resolve(`${pkg}/package.json`)
    // Resolutions are cached: the package may be gone since.
    meta = JSON.parse(fs.readFileSync(manifest, 'utf8')).dynamoemu
  } catch {
    throw new Error(`dynamoemu: the server for ${process.platform}-${process.arch} is in the package ${pkg}, which is not installed: ` +
      `install it (npm install --save-dev ${pkg}), or reinstall dynamoemu without --omit=optional / --no-optional`)
  }
  const dir = path.dirname(manifest)
  if (!meta) {
    throw new Error(`dynamoemu: the package ${pkg} in ${dir} does not name its binary (it is older than this dynamoemu): ` +
      'reinstall dynamoemu, which installs the platform package of its own version')
  }
  return unpacked(dir, path.join('bin', path.basename(meta.binary ?? exe)), meta)
}

// unpacked returns the path of the file that meta ({size, sha256})
// names, dir/REL, written from dir/REL.br if it is not there yet: the
// server's binary (executable), or @dynamoemu/wasm's engine (what =
// "engine", not executable).
function unpacked(dir, rel, meta, what = "server's binary") {
  const executable = what === "server's binary"
  const places = [path.join(dir, rel), path.join(cacheDir(), meta.sha256.slice(0, 16), path.basename(rel))]
  for (const bin of places) {
    if (isBinary(bin, meta, executable)) return bin
  }
  let data
  try {
    data = zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${rel}.br`)))
  } catch (err) {
    throw new Error(`dynamoemu: cannot read the ${what} in ${dir}: ${err.message}; reinstall the package`)
  }
  if (data.length !== meta.size || sha256(data) !== meta.sha256) {
    throw new Error(`dynamoemu: the ${what} in ${dir} is damaged (its SHA-256 is not the package's); reinstall the package`)
  }
  const failures = []
  for (const bin of places) {
    try {
      fs.mkdirSync(path.dirname(bin), { recursive: true })
      const tmp = `${bin}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`
      fs.writeFileSync(tmp, data, { mode: executable ? 0o755 : 0o644 })
      try {
        fs.renameSync(tmp, bin)
      } catch (err) {
        fs.rmSync(tmp, { force: true })
        // Windows refuses to replace a binary that runs: a racing writer
        // put the same one there first.
        if (!isBinary(bin, meta, executable)) throw err
      }
      return bin
    } catch (err) {
      failures.push(`${bin}: ${err.message}`)
    }
  }
  throw new Error(`dynamoemu: cannot write the ${what} (set DYNAMOEMU_CACHE to a folder you can write): ${failures.join('; ')}`)
}

// isBinary reports whether bin is the file meta names: a file of its
// size (that may be run, when executable). A file is only ever renamed
// into place whole and after its digest was checked, and the cache's
// folder is named by the digest, so the size tells a finished file from
// a stranger's without reading 17 MB at every start.
function isBinary(bin, meta, executable = true) {
  try {
    if (fs.statSync(bin).size !== meta.size) return false
    if (executable) fs.accessSync(bin, fs.constants.X_OK)
    return true
  } catch {
    return false
  }
}

function sha256(data) {
  return crypto.createHash('sha256').update(data).digest('hex')
}

// cacheDir is where a binary goes when its package's folder is read-only:
// DYNAMOEMU_CACHE, else the platform's user cache.
function cacheDir() {
  if (process.env.DYNAMOEMU_CACHE) return process.env.DYNAMOEMU_CACHE
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA || os.tmpdir(), 'dynamoemu')
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'dynamoemu')
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'dynamoemu')
}

module.exports = { binaryPath, unpacked, packages, dir: path.dirname(__filename) }
