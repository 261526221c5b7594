#!/usr/bin/env node
console.log("pq-lc-optional");
