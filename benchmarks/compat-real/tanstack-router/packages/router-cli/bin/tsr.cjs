#!/usr/bin/env node

require('../dist/cjs/index.cjs')
