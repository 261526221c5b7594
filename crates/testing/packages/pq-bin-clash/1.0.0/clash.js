#!/usr/bin/env node
console.log('clash');
