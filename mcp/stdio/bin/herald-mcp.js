#!/usr/bin/env node
// herald-mcp: MCP over stdio for Herald, configured by HERALD_API_KEY and HERALD_API_URL.
import { runStdioBridge } from '../bridge.js';

process.exitCode = await runStdioBridge(process.env);
