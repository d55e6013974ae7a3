// jest-dynalite: its preset makes the tables with their data before each
// test and deletes them after (setupTables, clearAfterEach).
module.exports = { preset: 'jest-dynalite', maxWorkers: 2, testMatch: ['**/*.bench.test.js'], testTimeout: 600000 }
