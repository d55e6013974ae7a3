'use strict'
// Jest globalTeardown: stops the run's servers.
module.exports = require('./jest.js').globalTeardown
