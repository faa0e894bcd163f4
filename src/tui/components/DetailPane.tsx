/**
 * The selected actor's detail: held gate point first (the request's messages or the tool
 * call's arguments, in full), then status, plan, system prompt (collapsed), conversation, live
 * streamed text, tool calls, outputs and errors.
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { DetailBlock } from '../view/detail-blocks.ts';
import { layoutDetail } from '../view/detail-layout.ts';

export interface DetailPaneProps {
  blocks: readonly DetailBlock[];
  cursor: number;
  offset: number;
  expanded: ReadonlySet<string>;
  width: number;
  height: number;
  focused: boolean;
}

/** The visible lines of the detail; memoised because wrapping a long conversation is the costly part. */
export const DetailPane = memo(function DetailPane(props: DetailPaneProps) {
  if (props.blocks.length === 0) {
    return (
      <Box width={props.width} height={props.height}>
        <Text dimColor>select an actor</Text>
      </Box>
    );
  }
  const lines = layoutDetail(props.blocks, props);
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      {lines.map((line, position) => (
        <Text
          key={position}
          bold={line.title}
          color={line.title && line.text.includes('⏸') ? 'yellow' : undefined}
          inverse={line.title && line.selected && props.focused}
        >
          {line.text}
        </Text>
      ))}
    </Box>
  );
});
