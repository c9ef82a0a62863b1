// Validates HAR files against the HAR 1.2 schema with har-validator
// (har-schema's JSON Schemas run by ajv). Usage: node validate.cjs FILE...
// Prints one JSON object, each file's errors by its name (null when the
// file is valid), and exits 1 when any file is invalid.
'use strict'
const fs = require('fs')
const validator = require('har-validator')

async function main (files) {
  const results = {}
  let invalid = 0
  for (const file of files) {
    try {
      await validator.har(JSON.parse(fs.readFileSync(file, 'utf8')))
      results[file] = null
    } catch (err) {
      results[file] = err.errors || [String(err)]
      invalid++
    }
  }
  console.log(JSON.stringify(results, null, 2))
  process.exitCode = invalid > 0 ? 1 : 0
}

main(process.argv.slice(2))
