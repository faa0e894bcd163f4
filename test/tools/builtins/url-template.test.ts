import { describe, expect, it } from 'vitest';
import {
  renderHeader,
  renderUrl,
  type TemplatePiece,
} from '../../../src/tools/builtins/url-template.ts';

const text = (value: string): TemplatePiece => ({ source: 'literal', text: value });
const input = (value: string, name = 'q'): TemplatePiece => ({
  source: 'input',
  name,
  text: value,
});
const secret = (value: string, name = 'key'): TemplatePiece => ({
  source: 'secret',
  name,
  text: value,
});
const variable = (value: string, name = 'base'): TemplatePiece => ({
  source: 'variable',
  name,
  text: value,
});

describe('renderUrl: an input in the query', () => {
  it.each([
    ['a&k=INJECTED', 'https://api.test/search?q=a%26k%3DINJECTED'],
    ['a#fragment', 'https://api.test/search?q=a%23fragment'],
    ['1+1 = 2', 'https://api.test/search?q=1%2B1%20%3D%202'],
    ['../../admin', 'https://api.test/search?q=..%2F..%2Fadmin'],
    ['café', 'https://api.test/search?q=caf%C3%A9'],
  ])('encodes %j as one query value', (value, expected) => {
    const url = renderUrl([text('https://api.test/search?q='), input(value)]);
    expect(url).toBe(expected);
    expect([...new URL(url).searchParams]).toEqual([['q', value]]);
  });

  it('encodes an input in a fragment the same way', () => {
    expect(renderUrl([text('https://api.test/page#'), input('a&b')])).toBe(
      'https://api.test/page#a%26b',
    );
  });
});

describe('renderUrl: an input in the path', () => {
  it.each([
    ['42', 'https://api.test/users/42/posts'],
    ['a/b', 'https://api.test/users/a%2Fb/posts'],
    ['x?admin=1', 'https://api.test/users/x%3Fadmin%3D1/posts'],
    ['x#y', 'https://api.test/users/x%23y/posts'],
    ['../admin', 'https://api.test/users/..%2Fadmin/posts'],
    ['a\\b', 'https://api.test/users/a%5Cb/posts'],
    ['...', 'https://api.test/users/.../posts'],
    ['%2e%2E', 'https://api.test/users/%252e%252E/posts'],
  ])('encodes %j as one path segment', (value, expected) => {
    const url = renderUrl([text('https://api.test/users/'), input(value, 'id'), text('/posts')]);
    expect(url).toBe(expected);
    expect(new URL(url).pathname).toBe(expected.slice('https://api.test'.length));
  });

  it.each(['..', '.'])('refuses %j as a whole segment, which would move the path', (value) => {
    expect(() =>
      renderUrl([text('https://api.test/users/'), input(value, 'id'), text('/posts')]),
    ).toThrow(
      `input "id" would make the URL path segment "${value}", which changes the path; pass a name, not "." or ".."`,
    );
  });

  it('refuses two values that together make a dot segment, but not dots beside text', () => {
    expect(() =>
      renderUrl([text('https://api.test/'), input('.', 'a'), input('.', 'b'), text('/x')]),
    ).toThrow('input "a" would make the URL path segment ".."');
    expect(renderUrl([text('https://api.test/files/'), input('..', 'name'), text('.txt')])).toBe(
      'https://api.test/files/...txt',
    );
  });
});

describe('renderUrl: secrets, variables and the host', () => {
  it('encodes a secret variable for its position, like an input', () => {
    expect(renderUrl([text('https://api.test/v1?key='), secret('k+/=&x')])).toBe(
      'https://api.test/v1?key=k%2B%2F%3D%26x',
    );
    expect(renderUrl([text('https://api.test/hooks/'), secret('a/b')])).toBe(
      'https://api.test/hooks/a%2Fb',
    );
  });

  it('takes a plain variable as configuration text, spanning parts', () => {
    expect(
      renderUrl([variable('https://api.test:8443/v2'), text('/users/'), input('7', 'id')]),
    ).toBe('https://api.test:8443/v2/users/7');
    expect(
      renderUrl([text('https://api.test'), variable('/v2/beta?x=1'), text('&q='), input('&')]),
    ).toBe('https://api.test/v2/beta?x=1&q=%26');
  });

  it('takes a value that begins the URL as the URL, from any source', () => {
    expect(renderUrl([input('https://other.test/a?b=1'), text('&c='), input('1&2')])).toBe(
      'https://other.test/a?b=1&c=1%262',
    );
    expect(renderUrl([secret('https://hooks.test/T0/B0/XYZ')])).toBe(
      'https://hooks.test/T0/B0/XYZ',
    );
  });

  it('allows host characters only for an input in the host', () => {
    expect(renderUrl([text('https://'), input('eu-1', 'region'), text('.api.test/x')])).toBe(
      'https://eu-1.api.test/x',
    );
    for (const value of ['evil.test/', 'evil.test#', 'evil.test?', 'user@evil.test', 'h:1']) {
      expect(() =>
        renderUrl([text('https://'), input(value, 'region'), text('.api.test/x')]),
      ).toThrow(
        'input "region" goes into the URL\'s host and may hold only letters, digits, "-" and "."',
      );
    }
  });

  it('percent-encodes a secret in the host part, so a password fits before @', () => {
    expect(renderUrl([text('https://bot:'), secret('p@ss/w'), text('@api.test/')])).toBe(
      'https://bot:p%40ss%2Fw@api.test/',
    );
  });
});

describe('renderHeader', () => {
  it('joins the pieces of a one-line value', () => {
    expect(renderHeader('Authorization', [text('Bearer '), input('t0k', 'token')])).toBe(
      'Bearer t0k',
    );
  });

  it.each(['a\r\nX-Injected: 1', 'a\nb', 'trailing\r\n', 'a\rb'])(
    'refuses an input holding CR or LF: %j',
    (value) => {
      expect(() => renderHeader('X-Note', [text('note: '), input(value, 'note')])).toThrow(
        'input "note" goes into the header "X-Note" and contains a line break (CR or LF); header values must be one line',
      );
    },
  );

  it('names a variable holding a line break', () => {
    expect(() => renderHeader('X-Key', [secret('k\n', 'api_key')])).toThrow(
      'variable "api_key" goes into the header "X-Key" and contains a line break (CR or LF); header values must be one line',
    );
  });
});
