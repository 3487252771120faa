import { endQuietlyOnClosedOutput } from './closed-output.js';
import { main } from './main.js';

endQuietlyOnClosedOutput();
// A diagnostic switch: every YAML file through js-yaml alone, without mcprely's fast reader in front of it.
if (process.env['MCPRELY_YAML'] === 'js-yaml') (await import('../document/parse-yaml.js')).readYamlWith('js-yaml');
await main(process.argv);
