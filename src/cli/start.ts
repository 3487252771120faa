// The CLI after the compile cache is on (bin.ts): everything else it runs is imported from here.
const { endQuietlyOnClosedOutput } = await import('./closed-output.js');
endQuietlyOnClosedOutput();
// A diagnostic switch: every YAML file through js-yaml alone, without mcprely's fast reader in front of it.
if (process.env['MCPRELY_YAML'] === 'js-yaml') (await import('../document/parse-yaml.js')).readYamlWith('js-yaml');
const { main } = await import('./main.js');
await main(process.argv);
