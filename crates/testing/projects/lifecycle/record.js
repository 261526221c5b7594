#!/usr/bin/env node
// Records one lifecycle script run for the lifecycle tests: appends
// "<package> <event>" to $INIT_CWD/lifecycle.log, saves the environment as
// $INIT_CWD/lifecycle-env/<package>.<event>.json, prints a line to stdout
// and one to stderr, and exits with <code> when PQ_LC_FAIL is
// "<package> <event> <code>".
const fs = require('fs');
const path = require('path');

const env = process.env;
const who = `${env.npm_package_name} ${env.npm_lifecycle_event}`;
fs.appendFileSync(path.join(env.INIT_CWD, 'lifecycle.log'), `${who}\n`);
const dir = path.join(env.INIT_CWD, 'lifecycle-env');
fs.mkdirSync(dir, { recursive: true });
const file = `${env.npm_package_name}.${env.npm_lifecycle_event}.json`.replace(/:/g, '_');
fs.writeFileSync(path.join(dir, file), JSON.stringify({ cwd: process.cwd(), env }, null, 2));
console.log(`${who} says hi`);
console.error(`${who} warns`);
const [name, event, code] = (env.PQ_LC_FAIL || '').split(' ');
if (name === env.npm_package_name && event === env.npm_lifecycle_event) {
  process.exit(Number(code));
}
