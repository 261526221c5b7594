#!/usr/bin/env node
import '@nuxt/cli/cli'
