#!/usr/bin/env node
require('../lib/bin')