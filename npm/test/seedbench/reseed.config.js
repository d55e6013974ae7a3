// dynamoemu, the table made and its items written again before each test.
module.exports = { preset: 'dynamoemu', maxWorkers: 2, testMatch: ['**/*.bench.test.js'], testTimeout: 600000,
  setupFilesAfterEnv: [`${__dirname}/reseed.setup.js`] }
