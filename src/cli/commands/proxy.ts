import type { Command } from 'commander';
import { addListenerOptions, type ListenerFlags, listenerAllowancesFrom } from '../listener-options.js';
import { type HeaderFlags, headerOption, headersFrom } from '../live-options.js';
import { addJudgeOptions, type JudgeFlags, judgeOptionsFrom } from '../session-options.js';

/** `mcprely proxy`'s options as commander parses them. */
interface ProxyFlags extends HeaderFlags, ListenerFlags, JudgeFlags {
  readonly stdio?: string;
  readonly url?: string;
  readonly listen?: string;
  readonly record?: string;
}

export function registerProxy(program: Command): void {
  const proxy = program
    .command('proxy')
    .description(
      "relay a real session between a host and a server, record it and judge both parties (put it in the host's MCP configuration)",
    )
    .usage('[options] (--stdio "<server command>" | -- <program> [arguments...] | --url <endpoint> [--listen 127.0.0.1:PORT])')
    .option('--stdio <command>', 'start this server command (no shell) and relay stdio to it')
    .option('--url <endpoint>', "relay Streamable HTTP to this server endpoint (the host connects to the proxy's address instead)")
    .addOption(headerOption('with --url: send this header ("Authorization: Bearer …") upstream on every request, in place of the host\'s'))
    .option('--listen <[host:]port>', 'with --url: where the host connects (default 127.0.0.1 on a free port; loopback unless told)')
    .option('--record <trace.jsonl>', 'write every message, as it passes, to this trace (mcprely audit reads it)')
    .argument('[server...]', 'the server command as words, after --');
  addJudgeOptions(addListenerOptions(proxy)).action(async (server: string[], options: ProxyFlags) => {
    const { runProxy } = await import('../proxy-command.js');
    if (server.length > 0 && typeof options.stdio === 'string') {
      process.stderr.write('error: give the server command once: --stdio "<command>" or after --, not both\n');
      process.exitCode = 2;
      return;
    }
    process.exitCode = await runProxy({
      ...(typeof options.stdio === 'string' ? { stdio: options.stdio } : {}),
      argv: server,
      ...(typeof options.url === 'string' ? { url: options.url } : {}),
      ...headersFrom(options),
      ...(typeof options.listen === 'string' ? { listen: options.listen } : {}),
      ...(typeof options.record === 'string' ? { record: options.record } : {}),
      ...listenerAllowancesFrom(options),
      judge: judgeOptionsFrom(options),
    });
  });
}
