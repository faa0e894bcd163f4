/** The protocol handlers the scripted model server uses unless told otherwise. */
import type { ProtocolHandler } from '../protocol.ts';
import { anthropicProtocol } from './anthropic.ts';
import { geminiProtocol } from './gemini.ts';
import { openaiProtocol } from './openai.ts';

export { anthropicProtocol, geminiProtocol, openaiProtocol };

/** A fresh list of every built-in protocol handler. */
export function defaultProtocolHandlers(): ProtocolHandler[] {
  return [openaiProtocol, anthropicProtocol, geminiProtocol];
}
