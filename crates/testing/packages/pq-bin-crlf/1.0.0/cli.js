#!/usr/bin/env node
console.log("pq-bin-crlf");
