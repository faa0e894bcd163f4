import type { RegisterCommand } from './commands.ts';

/** `sortie init [DIR]`: scaffold a project that runs at once offline with its mock model. */
export const registerInit: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('init')
    .description('make a new project (a model, an agent, a mission and a mock model) in DIR')
    .argument('[DIR]', 'the folder to make it in (made if missing)', '.')
    .action(async (directory: string) => {
      const { initCommand } = await import('./init-command.ts');
      setExitCode(await initCommand(directory, io));
    });
};
