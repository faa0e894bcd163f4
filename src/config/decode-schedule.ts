/**
 * `schedule` and `trigger` blocks of a mission, and its `max_parallel`: what `sortie serve`
 * runs unattended. Rules and messages follow the reference runtime's (schedule-rules.ts).
 */
import type { Attribute, Block, Expr } from './ast.ts';
import { checkBody, expectNoLabels } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import type { ConfigSchema } from './config-types.ts';
import type { ScheduleConfig, TriggerConfig } from './serve-config-types.ts';
import { readServerSecret } from './decode-secret.ts';
import { readScheduleInputs } from './schedule-inputs.ts';
import {
  cronPatternProblem,
  isTimeZone,
  parseAtTime,
  parseEvery,
  parseWeekday,
  type RuleResult,
} from './schedule-rules.ts';
import { readList, readString } from './values.ts';

/** The reference's default limit on concurrent runs of one mission. */
export const DEFAULT_MAX_PARALLEL = 3;

const MODES = ['at', 'every', 'cron'] as const;

/** Decodes `schedule { at | every | cron, weekdays, timezone, inputs }`. */
export function decodeSchedule(
  block: Block,
  context: DecodeContext,
  mission: { name: string; inputs: ConfigSchema | undefined },
): ScheduleConfig | undefined {
  if (!expectNoLabels(block, context)) return undefined;
  const inner = within(context, 'schedule');
  const body = checkBody(
    block.body,
    { attributes: ['at', 'every', 'cron', 'weekdays', 'timezone', 'inputs'] },
    inner,
    block.typeSpan,
  );
  const given = MODES.filter((mode) => body.attributes.has(mode));
  const [second] = given.slice(1).map((mode) => body.attributes.get(mode));
  if (given.length === 0 || second !== undefined) {
    return errorAt(
      inner,
      second?.nameSpan ?? block.typeSpan,
      'exactly one of at, every or cron must be set',
      given.length > 1
        ? `this schedule sets ${given.join(' and ')}; use one schedule block for each`
        : undefined,
    );
  }
  const schedule: ScheduleConfig = { span: block.typeSpan, inputs: {} };
  let ok = readMode(body.attributes, inner, schedule);
  const weekdays = body.attributes.get('weekdays');
  if (weekdays !== undefined) {
    if (schedule.cron !== undefined) {
      errorAt(
        inner,
        weekdays.nameSpan,
        'weekdays cannot be used with cron',
        'name the days in the cron pattern\'s fifth field, such as "0 9 * * 1-5"',
      );
      ok = false;
    } else {
      const days = readEach(weekdays, inner, parseWeekday);
      if (days === undefined) ok = false;
      else schedule.weekdays = [...new Set(days)].sort((a, b) => a - b);
    }
  }
  const timezone = body.attributes.get('timezone');
  const zone = timezone && readString(timezone, inner);
  if (timezone !== undefined && zone !== undefined && !isTimeZone(zone)) {
    errorAt(
      inner,
      timezone.value.span,
      `invalid timezone "${zone}": use an IANA time zone name such as "America/Chicago" or "UTC"`,
    );
    ok = false;
  } else if (zone !== undefined) schedule.timezone = zone;
  else if (timezone !== undefined) ok = false;
  const inputs = readScheduleInputs(body.attributes.get('inputs'), mission.inputs, inner, {
    mission: mission.name,
    header: block.typeSpan,
  });
  if (inputs === undefined) ok = false;
  else schedule.inputs = inputs;
  return ok ? schedule : undefined;
}

/** Reads the one mode attribute into the schedule; false when it is invalid. */
function readMode(
  attributes: Map<string, Attribute>,
  context: DecodeContext,
  schedule: ScheduleConfig,
): boolean {
  const at = attributes.get('at');
  if (at !== undefined) {
    const times = readEach(at, context, parseAtTime);
    if (times === undefined) return false;
    if (times.length === 0) {
      errorAt(context, at.value.span, 'at needs at least one time, such as ["09:00"]');
      return false;
    }
    const unique = new Map(times.map((time) => [time.hour * 60 + time.minute, time]));
    schedule.at = [...unique.entries()].sort(([a], [b]) => a - b).map(([, time]) => time);
    return true;
  }
  const every = attributes.get('every');
  if (every !== undefined) {
    const text = readChecked(every, context, parseEvery);
    if (text === undefined) return false;
    schedule.every = text;
    return true;
  }
  const cron = attributes.get('cron');
  const pattern = cron && readString(cron, context);
  if (cron === undefined || pattern === undefined) return false;
  const problem = cronPatternProblem(pattern);
  if (problem !== undefined) {
    errorAt(context, cron.value.span, problem);
    return false;
  }
  schedule.cron = pattern.trim().split(/\s+/).join(' ');
  return true;
}

/** A string attribute checked by `rule`; the text as written when it passes. */
function readChecked<T>(
  attribute: Attribute,
  context: DecodeContext,
  rule: (text: string) => RuleResult<T>,
): string | undefined {
  const text = readString(attribute, context);
  if (text === undefined) return undefined;
  const result = rule(text);
  if ('value' in result) return text;
  return errorAt(context, attribute.value.span, result.problem);
}

/** Each string of a list attribute checked by `rule`; undefined when any fails. */
function readEach<T>(
  attribute: Attribute,
  context: DecodeContext,
  rule: (text: string) => RuleResult<T>,
): T[] | undefined {
  const items = readList(attribute, context);
  if (items === undefined) return undefined;
  const values: T[] = [];
  let ok = true;
  for (const item of items) {
    const text = readString(itemAttribute(attribute.name, item), context);
    if (text === undefined) {
      ok = false;
      continue;
    }
    const result = rule(text);
    if ('value' in result) values.push(result.value);
    else {
      errorAt(context, item.span, result.problem);
      ok = false;
    }
  }
  return ok ? values : undefined;
}

function itemAttribute(name: string, value: Expr): Attribute {
  return {
    kind: 'attribute',
    name: `${name} items`,
    nameSpan: value.span,
    value,
    span: value.span,
  };
}

/** Decodes `trigger { webhook_path, secret }`; the path defaults to the mission's name. */
export function decodeTrigger(
  block: Block,
  context: DecodeContext,
  mission: string,
): TriggerConfig | undefined {
  if (!expectNoLabels(block, context)) return undefined;
  const inner = within(context, 'trigger');
  const body = checkBody(
    block.body,
    { attributes: ['webhook_path', 'secret'] },
    inner,
    block.typeSpan,
  );
  const pathAttribute = body.attributes.get('webhook_path');
  const written = pathAttribute === undefined ? mission : readString(pathAttribute, inner);
  if (written === undefined) return undefined;
  const webhookPath = normaliseWebhookPath(written);
  if (webhookPath === undefined) {
    return errorAt(
      inner,
      pathAttribute?.value.span ?? block.typeSpan,
      `invalid webhook_path "${written}": use a path such as "/ingest" made of letters, digits, -, _, . and ~ between slashes`,
    );
  }
  const trigger: TriggerConfig = { webhookPath, span: block.typeSpan };
  const secretAttribute = body.attributes.get('secret');
  if (secretAttribute === undefined) return trigger;
  const secret = readServerSecret(secretAttribute, inner);
  if (secret === undefined) return undefined;
  // A secret variable with no value leaves the trigger without one: serve refuses its webhook.
  if ('unsetVariable' in secret) trigger.unsetSecretVariable = secret.unsetVariable;
  else trigger.secret = secret.secret;
  return trigger;
}

/**
 * A webhook path as the reference keeps it, one leading slash (`/NAME` by default), with
 * doubled and trailing slashes dropped; undefined when a segment is empty of meaning (`.`,
 * `..`) or holds characters a URL path would have to escape.
 */
export function normaliseWebhookPath(written: string): string | undefined {
  const segments = written.split('/').filter((segment) => segment !== '');
  const valid = segments.every(
    (segment) => /^[A-Za-z0-9._~-]+$/.test(segment) && segment !== '.' && segment !== '..',
  );
  return segments.length > 0 && valid ? `/${segments.join('/')}` : undefined;
}

/** Reports a webhook path taken by two missions, at the second one's trigger. */
export function checkWebhookPaths(
  missions: Iterable<{ name: string; trigger?: TriggerConfig }>,
  context: DecodeContext,
): void {
  const owners = new Map<string, string>();
  for (const mission of missions) {
    if (mission.trigger === undefined) continue;
    const owner = owners.get(mission.trigger.webhookPath);
    if (owner === undefined) owners.set(mission.trigger.webhookPath, mission.name);
    else
      context.sink.error(
        mission.trigger.span,
        `webhook_path "${mission.trigger.webhookPath}" conflicts with mission "${owner}"`,
        [...context.path, `mission "${mission.name}"`, 'trigger'],
      );
  }
}
