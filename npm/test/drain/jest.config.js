// drainStreams under Jest (npm/test.sh): one server for the file, no preset.
module.exports = { testMatch: ['**/drain.test.js'], testTimeout: 60000 }
