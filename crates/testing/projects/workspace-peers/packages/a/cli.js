#!/usr/bin/env node
console.log("wp-a")
