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

// `verify` is a few hundred milliseconds of code that mostly runs once, yet V8 hands its
// hottest parser and decoder functions to TurboFan, whose background compiles (≈ 190 ms of CPU
// for the 8,000-line bench project) finish too late to pay off and take a core from the main
// thread on a 2-core machine. A budget eight times Node 20's default before TurboFan looks at a
// function leaves the main thread's time as it was and removes most of them (a long `run`
// keeps the default). V8 11 and 12 (Node 20 and 22) name the flag so; newer V8 renamed its
// tiering flags, and V8 prints an error for a flag it does not know.
if (process.argv[2] === 'verify' && Number(process.versions.v8.split('.')[0]) <= 12) {
  setFlagsFromString('--interrupt-budget=540672');
}

process.exitCode = await runCli(process.argv.slice(2), processIo());
