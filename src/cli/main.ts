#!/usr/bin/env node
// The `sortie` executable: everything lives in program.ts and one file per command.
import { setFlagsFromString } from 'node:v8';
import { processIo } from './io.ts';
import { runCli } from './program.ts';

// hcl2json (the grammar of record) is a large Go program compiled to WASM that a CLI process
// runs only while loading the project. V8 would spend most of a cold `sortie verify` on
// optimising it (TurboFan tier-up); its baseline compiler alone parses a large project much
// sooner from cold (bench/README.md). Set before any WASM is compiled (hcl2json loads lazily).
setFlagsFromString('--liftoff-only');

// `verify` runs a few hundred milliseconds of code once and keeps nearly all it allocates (the
// syntax tree, then the config). V8's defaults suit a long-lived process and cost it twice:
// TurboFan compiles its hottest functions on background threads too late to pay off, taking a
// core from the main thread on a 2-core machine, and the young generation grows while the same
// survivors are copied out of it, so a verify faults in more fresh memory (page faults are dear
// in a VM; figures in bench/README.md). So: a TurboFan budget eight times Node 20's default,
// and a young generation that keeps its first size (see docs/decisions.md, "`sortie verify`
// cold"); a long `run` keeps both defaults. V8 11 and 12 (Node 20 and 22) name the flags so;
// V8 prints an error for a flag it does not know.
if (process.argv[2] === 'verify' && Number(process.versions.v8.split('.')[0]) <= 12) {
  setFlagsFromString('--interrupt-budget=540672');
  setFlagsFromString('--semi-space-growth-factor=1');
}

process.exitCode = await runCli(process.argv.slice(2), processIo());
