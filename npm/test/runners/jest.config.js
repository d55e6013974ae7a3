module.exports = { preset: 'dynamoemu', testMatch: ['**/*.jest.test.js'], maxWorkers: 2 }
