import { SortieError } from '../../base/errors.ts';

/**
 * One piece of an evaluated request template: literal text written in the config, or a
 * value interpolated into it, with where the value came from. The source decides how the
 * value is treated: a tool input (chosen by the model) and a secret variable are data,
 * encoded for where they land; a plain variable is configuration text, like the literal.
 */
export type TemplatePiece = PieceSource & { text: string };

/** Where a piece of a template came from (an interpolated value carries the name it read). */
export type PieceSource =
  { source: 'literal' } | { source: 'input' | 'secret' | 'variable'; name: string };

/** A request template that cannot be rendered safely; the message is for the model. */
export class RequestTemplateError extends SortieError {}

/** The part of a URL that a piece lands in, judged from the text before it. */
type UrlPosition = 'start' | 'authority' | 'path' | 'query' | 'fragment';

/** Characters of a host name: a value in the host may not add a port, a user or a path. */
const HOST_TEXT = /^[A-Za-z0-9.-]*$/;
const SCHEME_AND_SLASHES = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * Renders a URL template. Literal text and plain variables are taken as written. An input
 * or a secret variable is encoded for its position: in the path as one segment (so `/`,
 * `?`, `#` cannot change the path, and a segment of `.` or `..` is refused), in the query
 * and fragment as one component (so `&`, `=`, `#` cannot add parameters). In the host it
 * must be host characters only; a value that begins the URL is the URL as given.
 */
export function renderUrl(pieces: readonly TemplatePiece[]): string {
  let url = '';
  const pathData: Array<{ piece: TemplatePiece; start: number; end: number }> = [];
  for (const piece of pieces) {
    const position = positionAfter(url);
    if (piece.source === 'literal' || piece.source === 'variable' || position === 'start') {
      url += piece.text;
      continue;
    }
    if (position === 'authority') {
      if (piece.source === 'input' && !HOST_TEXT.test(piece.text)) {
        throw new RequestTemplateError(
          `${describeSource(piece)} goes into the URL's host and may hold only letters, digits, "-" and "."`,
        );
      }
      url += encodeURIComponent(piece.text);
      continue;
    }
    const start = url.length;
    url += encodeURIComponent(piece.text);
    if (position === 'path') pathData.push({ piece, start, end: url.length });
  }
  refuseDotSegments(url, pathData);
  return url;
}

/**
 * Refuses a header value holding CR or LF (which would end the header and start another);
 * the message names the value's source, so the model knows which argument to fix.
 */
export function renderHeader(header: string, pieces: readonly TemplatePiece[]): string {
  for (const piece of pieces) {
    if (!/[\r\n]/.test(piece.text)) continue;
    throw new RequestTemplateError(
      `${describeSource(piece)} goes into the header "${header}" and contains a line break (CR or LF); header values must be one line`,
    );
  }
  return pieces.map((piece) => piece.text).join('');
}

function describeSource(piece: TemplatePiece): string {
  if (piece.source === 'input') return `input "${piece.name}"`;
  if (piece.source === 'literal') return 'the configured text';
  return `variable "${piece.name}"`;
}

/** Where text appended to `url` lands (percent-encoded values never move the position). */
function positionAfter(url: string): UrlPosition {
  if (url === '') return 'start';
  if (url.includes('#')) return 'fragment';
  if (url.includes('?')) return 'query';
  const scheme = SCHEME_AND_SLASHES.exec(url);
  if (scheme === null) return 'authority';
  return url.slice(scheme[0].length).includes('/') ? 'path' : 'authority';
}

/**
 * URL parsers treat `..` and `.` segments — also percent-encoded — as moves, so encoding
 * alone cannot keep a value from changing the path: a segment holding data that reads as
 * one of them is refused.
 */
function refuseDotSegments(
  url: string,
  pathData: ReadonlyArray<{ piece: TemplatePiece; start: number; end: number }>,
): void {
  for (const { piece, start, end } of pathData) {
    const segmentStart = url.lastIndexOf('/', start - 1) + 1;
    const after = url.slice(end).search(/[/?#]/);
    const segment = url.slice(segmentStart, after === -1 ? url.length : end + after);
    const decoded = segment.replaceAll(/%2e/gi, '.');
    if (decoded === '.' || decoded === '..') {
      throw new RequestTemplateError(
        `${describeSource(piece)} would make the URL path segment "${decoded}", which changes the path; pass a name, not "." or ".."`,
      );
    }
  }
}
