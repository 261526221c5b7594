#!/usr/bin/env node
console.log('lib');
