// Reset between test files: a server per worker, rewound before each file.
process.env.DYNAMOEMU_RESET = '1'
module.exports = { preset: 'dynamoemu', testMatch: ['**/*.jest.test.js'], maxWorkers: 2 }
