/** The footer: the keys that work where the focus is, from the key table; plus a notice line. */
import { Box, Text } from 'ink';
import { bindingsFor, keyLabel } from '../key-match.ts';
import type { KeyContext } from '../keys.ts';
import { textWidth, truncate } from '../../present/columns.ts';

/** Lines the key hints may take. */
export const FOOTER_KEY_LINES = 2;

export interface FooterProps {
  context: KeyContext;
  notice: string;
  width: number;
}

/**
 * The key hints for a context, packed into lines of `width` (at most FOOTER_KEY_LINES): the
 * table's footer keys (`?` lists the rest), or every key of an open overlay.
 */
export function footerLines(context: KeyContext, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const bindings = bindingsFor(context).filter(
    (binding) =>
      context.overlay !== 'none' ||
      binding.footer === true ||
      (binding.footer === 'asking' && context.asking === true),
  );
  for (const binding of bindings) {
    const hint = `${keyLabel(binding)} ${binding.short}`;
    const candidate = line === '' ? hint : `${line}  ${hint}`;
    if (textWidth(candidate) <= width || line === '') {
      line = candidate;
      continue;
    }
    lines.push(line);
    line = hint;
  }
  if (line !== '') lines.push(line);
  return lines.slice(0, FOOTER_KEY_LINES).map((text) => truncate(text, width));
}

/** Notice (if any) and key hints. */
export function Footer({ context, notice, width }: FooterProps) {
  const lines = footerLines(context, width);
  while (lines.length < FOOTER_KEY_LINES) lines.push('');
  return (
    <Box flexDirection="column">
      {/* A space keeps the line when there is no notice, so the layout does not jump. */}
      <Text color="green">{truncate(notice, width) || ' '}</Text>
      {lines.map((line, position) => (
        <Text key={position} dimColor>
          {line}
        </Text>
      ))}
    </Box>
  );
}
