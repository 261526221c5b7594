#!/usr/bin/env node
console.log("local-dir");
