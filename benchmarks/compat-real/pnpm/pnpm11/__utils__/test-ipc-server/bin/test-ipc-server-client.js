#!/usr/bin/env node
import {} from '../lib/clientBin.js'
