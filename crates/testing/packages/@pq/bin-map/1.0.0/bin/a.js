#!/usr/bin/env node
console.log('a');
