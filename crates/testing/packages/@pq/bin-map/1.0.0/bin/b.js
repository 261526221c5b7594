#!/usr/bin/env node
console.log('b');
