// validate.mjs: the Khronos glTF-Validator on each file named, for the mshed tests.
//
// Copyright 2026 The mshed authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
//   node tests/gltf/validate.mjs FILE.glb|FILE.gltf...
//
// Prints one summary line per file (errors, warnings, infos, and the messages of every error
// and warning) and exits with 1 when any file has an error or a warning, 2 when the validator
// is not installed or a file cannot be read. The validator comes from the npm registry through
// tests/gltf/package.json and its lock, installed by `./mshed-dev` under _build/gltf-tools;
// MSHED_GLTF_TOOLS names another directory holding its node_modules.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const tools = process.env.MSHED_GLTF_TOOLS ||
  resolve(here, "..", "..", "_build", "gltf-tools");
let validator;
try {
  validator = createRequire(join(tools, "package.json"))("gltf-validator");
} catch (e) {
  console.error(`validate.mjs: no gltf-validator under ${tools} (run ./mshed-dev deps)`);
  process.exit(2);
}

let bad = false;
for (const file of process.argv.slice(2)) {
  let data;
  try {
    data = new Uint8Array(await readFile(file));
  } catch (e) {
    console.error(`validate.mjs: ${file}: ${e.message}`);
    process.exit(2);
  }
  const report = await validator.validateBytes(data, {
    uri: file,
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      readFile(resolve(dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const issues = report.issues;
  console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
              `${issues.numInfos} infos, ${issues.numHints} hints`);
  for (const m of issues.messages) {
    if (m.severity <= 1)
      console.log(`  ${m.severity === 0 ? "error" : "warning"} ${m.code} ${m.pointer ?? ""}: ` +
                  m.message);
  }
  if (issues.numErrors > 0 || issues.numWarnings > 0)
    bad = true;
}
process.exit(bad ? 1 : 0);
