/** `q` while the mission runs: quitting cancels it, so ask first. */
import { Box, Text } from 'ink';

/** The question, drawn over the footer. */
export function ConfirmQuit() {
  return (
    <Box borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text>The mission is still running. Cancel it and quit? </Text>
      <Text bold>y</Text>
      <Text> yes · </Text>
      <Text bold>n</Text>
      <Text> no</Text>
    </Box>
  );
}
