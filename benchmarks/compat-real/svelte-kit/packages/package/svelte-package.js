#!/usr/bin/env node
import './src/cli.js';
