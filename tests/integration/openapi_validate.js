// openapi_validate.js FILE...: validate each OpenAPI document with
// @apidevtools/swagger-parser (the OpenAPI 3 schema, then its own checks:
// $refs resolve, operationIds unique, path parameters declared).  Prints
// "FILE: ok" or "FILE: <what is wrong>"; exits 1 if any is invalid.
// NODE_PATH must reach the validator's node_modules
// (scripts/install-openapi-validator.sh).
"use strict";
const SwaggerParser = require("@apidevtools/swagger-parser");

async function main() {
	let bad = 0;
	for (const f of process.argv.slice(2)) {
		try {
			await SwaggerParser.validate(f);
			console.log(f + ": ok");
		} catch (e) {
			bad++;
			console.log(f + ": " + e.message);
		}
	}
	process.exit(bad ? 1 : 0);
}
main();
