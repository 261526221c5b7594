#!/usr/bin/env node
console.log('leaf');
