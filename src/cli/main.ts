#!/usr/bin/env node
// The `sortie` executable: everything lives in program.ts and one file per command.
import { setFlagsFromString } from 'node:v8';
import { processIo } from './io.ts';
import { runCli } from './program.ts';

// hcl2json (the grammar of record) is a large Go program compiled to WASM that a CLI process
// runs only while loading the project. V8 would spend most of a cold `sortie verify` on
// optimising it (TurboFan tier-up); its baseline compiler alone parses a 2,000-line project
// several times faster from cold. Set before any WASM is compiled (hcl2json loads lazily).
setFlagsFromString('--liftoff-only');

process.exitCode = await runCli(process.argv.slice(2), processIo());
