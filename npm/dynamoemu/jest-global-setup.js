'use strict'
// Jest globalSetup: the run's server, or one per worker with reset (see
// testing.js and jest-preset.js). A configuration's own globalSetup
// replaces this file: it calls require('dynamoemu/jest').globalSetup.
module.exports = require('./jest.js').globalSetup
