#!/usr/bin/env node
console.log("tools")
