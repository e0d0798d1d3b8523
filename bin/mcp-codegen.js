#!/usr/bin/env node
// The published entry point runs the compiled CLI (`make build` writes dist/).
import { main } from "../dist/codegen/cli.js";

process.exitCode = await main(process.argv.slice(2));
