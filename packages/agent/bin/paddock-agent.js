#!/usr/bin/env node
// Runs the compiled command; `npm ci` builds it (the root prepare script).
import '../dist/bin/paddock-agent.js';
