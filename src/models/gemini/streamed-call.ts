/**
 * A function call whose arguments Vertex streams in pieces (`streamFunctionCallArguments`):
 * a part with the name and `willContinue: true` opens it, parts with `partialArgs` (a JSON
 * path and one scalar each; a string may itself arrive in several pieces) fill it, and a part
 * without `willContinue` (often an empty `functionCall: {}`) closes it. Without this every
 * piece would be a call of its own, unnamed.
 */
import type { FunctionCall, PartialArg } from '@google/genai';

/** One step of a JSON path: an object key or an array position. */
type PathStep = string | number;

/** Steps of `$.a.b[0]['c']`; undefined for a path this reader does not understand. */
function parsePath(path: string): PathStep[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: PathStep[] = [];
  const pattern =
    /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null) return undefined;
    const [, name, index, single, double] = match;
    if (index !== undefined) steps.push(Number(index));
    else steps.push((name ?? single ?? double)!.replace(/\\(.)/g, '$1'));
  }
  return steps;
}

/** The scalar a partial argument carries; `undefined` when it carries none. */
function valueOf(argument: PartialArg): unknown {
  if (argument.stringValue !== undefined) return argument.stringValue;
  if (argument.numberValue !== undefined) return argument.numberValue;
  if (argument.boolValue !== undefined) return argument.boolValue;
  if (argument.nullValue !== undefined) return null;
  return undefined;
}

type Container = Record<string, unknown> | unknown[];

/** The container at `step` inside `parent`, made (an array for a numeric next step) when absent. */
function childContainer(parent: Container, step: PathStep, next: PathStep): Container {
  const current = (parent as Record<PathStep, unknown>)[step];
  if (typeof current === 'object' && current !== null) return current as Container;
  const made: Container = typeof next === 'number' ? [] : {};
  (parent as Record<PathStep, unknown>)[step] = made;
  return made;
}

/** Collects one streamed call's arguments; `apply` each piece, `arguments` at the end. */
export class StreamedCallArguments {
  private readonly root: Record<string, unknown>;
  /** The path whose string value the last piece said would continue. */
  private openString: string | undefined;
  /** Pieces whose path could not be read, so the call is not passed on silently changed. */
  readonly unreadPaths: string[] = [];

  constructor(initial: FunctionCall['args']) {
    this.root = { ...(initial ?? {}) };
  }

  /** Whole arguments a later piece carried, laid over what came before. */
  merge(args: Record<string, unknown>): void {
    Object.assign(this.root, args);
  }

  apply(pieces: readonly PartialArg[]): void {
    for (const piece of pieces) this.applyOne(piece);
  }

  private applyOne(piece: PartialArg): void {
    const path = piece.jsonPath ?? '';
    const steps = parsePath(path);
    const value = valueOf(piece);
    if (steps === undefined || steps.length === 0) {
      this.unreadPaths.push(path);
      return;
    }
    let container: Container = this.root;
    for (let position = 0; position < steps.length - 1; position++)
      container = childContainer(container, steps[position]!, steps[position + 1]!);
    const last = steps[steps.length - 1]!;
    const target = container as Record<PathStep, unknown>;
    const previous = target[last];
    if (this.openString === path && typeof value === 'string' && typeof previous === 'string')
      target[last] = previous + value;
    else if (value !== undefined) target[last] = value;
    this.openString = piece.willContinue === true ? path : undefined;
  }

  /** The arguments as the JSON text of a tool call. */
  arguments(): string {
    return JSON.stringify(this.root);
  }
}
