/** What every part of sortie's MCP server reads: the project, its runs, and the log. */
import type { Project } from '../../run/project.ts';
import type { RunService } from '../run-service.ts';

/** The served project and the service running its missions. */
export interface McpHostContext {
  project: Project;
  stateDir: string;
  service: RunService;
  version: string;
  /** One line for the server's log (stderr under `sortie mcp serve`). */
  log: (line: string) => void;
}

/** A tool's JSON answer. */
export function jsonResult(value: unknown): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/** A tool's refusal: a sentence the calling model can act on. */
export function errorResult(message: string): {
  isError: true;
  content: Array<{ type: 'text'; text: string }>;
} {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** The URI of a run's resource. */
export function runUri(runId: string): string {
  return `sortie://runs/${runId}`;
}
