// Validates an OpenAPI document with @apidevtools/swagger-parser: the
// document against the OpenAPI 3.1 schema, then every $ref resolved.
// Usage: node swagger-parser.cjs FILE; exit 0 valid, 1 not.
const SwaggerParser = require("@apidevtools/swagger-parser");

SwaggerParser.validate(process.argv[2])
  .then((api) => console.log(`swagger-parser: valid OpenAPI ${api.openapi}, ${Object.keys(api.paths).length} paths`))
  .catch((err) => {
    console.error(`swagger-parser: ${err.message}`);
    process.exit(1);
  });
