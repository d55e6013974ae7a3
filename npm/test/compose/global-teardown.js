const dynamoemu = require('dynamoemu/jest')

module.exports = async () => {
  await dynamoemu.globalTeardown()
}
