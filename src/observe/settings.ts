/**
 * Whether a run exports traces, read from the standard OpenTelemetry variables and `--otel`.
 * This module loads no OpenTelemetry code: a run without the variables or the flag reads them
 * here and never imports the exporter (src/observe/index.ts loads it on demand).
 */

/** The wire formats the OTLP exporters speak over HTTP. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** How a run's traces are exported. */
export interface TraceSettings {
  /** The traces URL given with `--otel` (or to `sortie export --otlp`); else the exporter reads the variables. */
  url?: string;
  protocol: OtlpProtocol;
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: prompts, replies, tool arguments and results. */
  captureContent: boolean;
  /** The longest the end of a run waits for the last spans to be sent, in milliseconds. */
  flushTimeoutMs: number;
  /** Where spans go, for the warning when they cannot be sent. */
  destination: string;
}

type Environment = Record<string, string | undefined>;

/** The exporter's own timeout (OTEL_EXPORTER_OTLP_TIMEOUT) when none is set. */
const DEFAULT_TIMEOUT_MS = 10_000;

function variable(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The trace export a run gets: from `url` (`--otel`), else from OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; undefined when neither is set, when OTEL_SDK_DISABLED is
 * true or OTEL_TRACES_EXPORTER is `none`. `warn` hears about a protocol sortie cannot send.
 */
export function traceSettingsOf(
  env: Environment,
  url: string | undefined,
  warn: (message: string) => void,
): TraceSettings | undefined {
  if (variable(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  if (url === undefined && variable(env, 'OTEL_TRACES_EXPORTER') === 'none') return undefined;
  const endpoint =
    variable(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ??
    variable(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (url === undefined && endpoint === undefined) return undefined;
  const asked =
    variable(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    variable(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf';
  let protocol: OtlpProtocol = 'http/protobuf';
  if (asked === 'http/json') protocol = 'http/json';
  else if (asked !== 'http/protobuf') {
    warn(`OTLP protocol "${asked}" is not supported; traces are sent as http/protobuf`);
  }
  const timeout = Number(
    variable(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ??
      variable(env, 'OTEL_EXPORTER_OTLP_TIMEOUT'),
  );
  return {
    ...(url !== undefined ? { url: tracesUrl(url) } : {}),
    protocol,
    captureContent:
      variable(env, 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.toLowerCase() === 'true',
    flushTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
    destination: url ?? endpoint ?? '',
  };
}

/**
 * `--otel URL` is an OTLP endpoint like OTEL_EXPORTER_OTLP_ENDPOINT: the traces path is added,
 * unless the URL already names it.
 */
export function tracesUrl(url: string): string {
  if (/\/v1\/traces\/?$/.test(url)) return url;
  return `${url.replace(/\/+$/, '')}/v1/traces`;
}
