'use strict'
// Which package holds the server's binary for this machine. Each is an
// optional dependency of this one, installed only where its "os" and
// "cpu" match (the pattern esbuild uses): no download at install time,
// no postinstall script.
const fs = require('node:fs')
const path = require('node:path')

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
  try {
    const bin = require.resolve(`${pkg}/bin/${exe}`)
    fs.accessSync(bin, fs.constants.X_OK) // resolutions are cached: the file may be gone since
    return bin
  } catch {
    throw new Error(`dynamoemu: the server for ${process.platform}-${process.arch} is in the package ${pkg}, which is not installed: ` +
      `install it (npm install --save-dev ${pkg}), or reinstall dynamoemu without --omit=optional / --no-optional`)
  }
}

module.exports = { binaryPath, packages, dir: path.dirname(__filename) }
