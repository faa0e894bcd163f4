import type { ScriptTurn } from '../../src/testing/index.ts';

/** A scripted model turn calling one tool, costing 110 tokens (100 in, 10 out). */
export function call(name: string, args: Record<string, unknown> = {}): ScriptTurn {
  return { toolCalls: [{ name, arguments: args }], usage: { input: 100, output: 10 } };
}
