import { enableCompileCache } from './compile-cache.js';

// Before anything else is loaded, so the rest of the CLI is compiled into the cache (Node 22.1+): dynamic imports below.
enableCompileCache();
const { endQuietlyOnClosedOutput } = await import('./closed-output.js');
endQuietlyOnClosedOutput();
// A diagnostic switch: every YAML file through js-yaml alone, without mcprely's fast reader in front of it.
if (process.env['MCPRELY_YAML'] === 'js-yaml') (await import('../document/parse-yaml.js')).readYamlWith('js-yaml');
const { main } = await import('./main.js');
await main(process.argv);
