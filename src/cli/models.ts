import type { RegisterCommand } from './commands.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { collect } from './collect-flag.ts';

/**
 * `sortie models [DIR]`: every key of every model block with API name, prices and reasoning
 * flag; in a folder with no project and no DIR, the built-in keys of each provider.
 */
export const registerModels: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('models')
    .description(
      'list model blocks: every key with API name, prices ($ per 1M tokens), reasoning flag',
    )
    .argument('[DIR]', 'project directory or .hcl file (default: here; no project: built-ins)')
    .option('--var <NAME=VALUE>', 'set a variable (repeatable)', collect)
    .action(async (directory: string | undefined, options: { var?: string[] }) => {
      const { checkDeclaredVariables, parseVarFlags } = await import('./var-flags.ts');
      const { loadProject } = await import('../config/load-project.ts');
      const { ProjectNotFoundError } = await import('../config/syntax/project-errors.ts');
      const { formatBuiltinModels, formatModels } = await import('./models-table.ts');
      const vars = parseVarFlags(options.var ?? []);
      try {
        const config = await loadProject(directory ?? '.', { vars, env: io.env });
        checkDeclaredVariables(vars, config.variables.keys());
        io.stdout(formatModels(config));
      } catch (error) {
        // Outside a project (no DIR, no .hcl here): the keys every model block starts with.
        const noProject = error instanceof ProjectNotFoundError && error.problem === 'empty';
        if (directory !== undefined || !noProject) throw error;
        io.stdout(formatBuiltinModels());
      }
      setExitCode(ExitCode.ok);
    });
};
