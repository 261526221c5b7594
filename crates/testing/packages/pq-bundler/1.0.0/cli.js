#!/usr/bin/env node
console.log("pq-bundler");
