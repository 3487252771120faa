import type { Command } from 'commander';

export function registerLsp(program: Command): void {
  program
    .command('lsp')
    .description('a language server for editors: diagnostics as you type, quick fixes, rule pages on hover')
    .option('--stdio', 'speak the Language Server Protocol over standard input and output (the only transport)')
    .action(async () => {
      const { startLanguageServer } = await import('../../language-server/lsp-server.js');
      startLanguageServer(process.stdin, process.stdout);
    });
}
