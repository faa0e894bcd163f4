/**
 * `openProject`, the programmatic API's first step: load and verify a project with the tools
 * a program registers as TypeScript functions, and hand back every diagnostic as data.
 */
import { analyzeProject } from '../config/load-project.ts';
import type { Config } from '../config/config-types.ts';
import type { Diagnostic } from '../base/errors.ts';
import { UsageError } from '../base/errors.ts';
import type { AgentTool } from '../tools/builtins/agent-tool.ts';
import { agentToolOf, type SortieTool } from '../tools/functions/index.ts';

/** How to open a project. */
export interface ProjectOptions {
  /** Variable values, as `--var NAME=VALUE` gives them. */
  vars?: Record<string, string>;
  /** Where variables without a value are looked up (default: `process.env`). */
  env?: Record<string, string | undefined>;
  /** TypeScript functions agents may list as `tools.NAME`. */
  tools?: readonly SortieTool[];
}

/** A loaded project: its configuration and what verifying it found. */
export interface Project {
  /** Absolute project root. */
  readonly root: string;
  /** Every error and warning, sorted by file and position (what `sortie verify` prints). */
  readonly diagnostics: readonly Diagnostic[];
  /** True when no diagnostic is an error: only then can a mission run. */
  readonly ok: boolean;
  /** The decoded configuration (meaningful when `ok`). */
  readonly config: Config;
  /** The mission names, in declaration order. */
  readonly missions: readonly string[];
  /** File texts by path relative to the root, for `formatDiagnostic` excerpts. */
  readonly sources: ReadonlyMap<string, string>;
  /** The registered tools by name, as agents run them. */
  readonly functionTools: ReadonlyMap<string, AgentTool>;
}

/**
 * Loads and verifies the project in `directory` (or one `.hcl` file). Configuration problems
 * are diagnostics, never thrown; a directory without `.hcl` files throws ProjectNotFoundError,
 * and a registered tool with a bad name, a bad schema or a duplicate name throws UsageError.
 */
export async function openProject(
  directory: string,
  options: ProjectOptions = {},
): Promise<Project> {
  const functionTools = registeredTools(options.tools ?? []);
  const analysis = await analyzeProject(directory, {
    ...(options.vars !== undefined ? { vars: options.vars } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    functionTools: new Set(functionTools.keys()),
  });
  return {
    root: analysis.root,
    diagnostics: analysis.diagnostics,
    ok: !analysis.diagnostics.some((diagnostic) => diagnostic.severity === 'error'),
    config: analysis.config,
    missions: [...analysis.config.missions.keys()],
    sources: analysis.sources,
    functionTools,
  };
}

function registeredTools(tools: readonly SortieTool[]): Map<string, AgentTool> {
  const byName = new Map<string, AgentTool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) {
      throw new UsageError(`tool "${tool.name}" is registered twice`);
    }
    byName.set(tool.name, agentToolOf(tool));
  }
  return byName;
}
