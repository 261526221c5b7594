#!/usr/bin/env node
console.log('one');
