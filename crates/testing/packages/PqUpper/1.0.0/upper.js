#!/usr/bin/env node
console.log('upper');
