/**
 * `eval "NAME" { mission, repeat, concurrency, pass_rate, case …, variant …, expect … }`:
 * one eval of a project's mission, decoded against the loaded project.
 */
import { dirname, join } from 'node:path';
import type { Block } from '../../config/ast.ts';
import { blockName, checkBody, headerSpan } from '../../config/body.ts';
import type { DecodeContext } from '../../config/context.ts';
import type { Config } from '../../config/config-types.ts';
import { readNumber, readString } from '../../config/values.ts';
import { didYouMean } from '../../base/suggest.ts';
import { decodeCase } from './decode-case.ts';
import { decodeExpectation, readFraction } from './decode-expectation.ts';
import { baselineVariant, decodeVariant } from './decode-variant.ts';
import type { EvalCase, EvalDefinition, EvalVariant } from './eval-types.ts';

/** Decodes one eval block; undefined (errors reported) when it cannot run. */
export function decodeEval(
  block: Block,
  config: Config,
  where: { file: string; folder: string },
  context: DecodeContext,
): EvalDefinition | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = { ...context, path: [`eval "${name}"`] };
  const span = headerSpan(block);
  const body = checkBody(
    block.body,
    {
      attributes: ['mission', 'repeat', 'concurrency', 'pass_rate'],
      required: ['mission'],
      blocks: ['case', 'variant', 'expect'],
    },
    inner,
    span,
  );
  const missionAttribute = body.attributes.get('mission');
  const missionName =
    missionAttribute === undefined ? undefined : readString(missionAttribute, inner);
  if (missionAttribute === undefined || missionName === undefined) return undefined;
  const mission = config.missions.get(missionName);
  if (mission === undefined) {
    const names = [...config.missions.keys()];
    inner.sink.error(
      missionAttribute.value.span,
      `no mission "${missionName}"${didYouMean(missionName, names)}`,
      inner.path,
    );
    return undefined;
  }
  const count = (attribute: string, fallback: number): number | undefined => {
    const found = body.attributes.get(attribute);
    return found === undefined ? fallback : readNumber(found, inner, { integer: true, min: 1 });
  };
  const repeat = count('repeat', 1);
  const concurrency = count('concurrency', 1);
  const passRateAttribute = body.attributes.get('pass_rate');
  const passRate = passRateAttribute === undefined ? 1 : readFraction(passRateAttribute, inner);
  const scope = { config, mission, folder: where.folder, passRate: passRate ?? 1 };
  const blocksOf = (type: string): Block[] => body.blocks.filter((child) => child.type === type);
  const cases = unique(
    blocksOf('case').map((child) => ({ block: child, value: decodeCase(child, scope, inner) })),
    'case',
    inner,
  );
  const variants = unique(
    blocksOf('variant').map((child) => ({
      block: child,
      value: decodeVariant(child, scope, inner),
    })),
    'variant',
    inner,
  );
  const expectations = blocksOf('expect').flatMap((child) =>
    decodeExpectation(child, scope, inner),
  );
  if (blocksOf('case').length === 0) {
    inner.sink.error(span, 'an eval needs at least one case "NAME" { inputs = { … } }', inner.path);
  }
  if (cases === undefined || variants === undefined) return undefined;
  if (repeat === undefined || concurrency === undefined || passRate === undefined) return undefined;
  return {
    name,
    mission: mission.name,
    repeat,
    concurrency,
    cases,
    variants: variants.length === 0 ? [baselineVariant(span)] : variants,
    expectations,
    file: where.file,
    span,
  };
}

/** The decoded blocks, each name once; undefined when one failed to decode or repeats a name. */
function unique<T extends EvalCase | EvalVariant>(
  decoded: Array<{ block: Block; value: T | undefined }>,
  kind: string,
  context: DecodeContext,
): T[] | undefined {
  const seen = new Set<string>();
  let ok = true;
  for (const { block, value } of decoded) {
    if (value === undefined) {
      ok = false;
      continue;
    }
    if (seen.has(value.name)) {
      context.sink.error(headerSpan(block), `duplicate ${kind} "${value.name}"`, context.path);
      ok = false;
    }
    seen.add(value.name);
  }
  return ok ? decoded.map(({ value }) => value as T) : undefined;
}

/** The folder an eval file's relative paths are read from. */
export function evalFolder(root: string, file: string): string {
  return dirname(join(root, file));
}
