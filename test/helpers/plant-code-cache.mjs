// Writes a V8 code cache that V8 would take for dist/cli-function.js but that runs other code: a script of the same
// length (V8 checks only the source's length) whose function prints PLANTED. Run in a child process, so the cache
// carries the V8 flags of a plain `node`, as the CLI's runs do.
//   node test/helpers/plant-code-cache.mjs <dist/cli-function.js> <cache file to write>
import { readFileSync, writeFileSync } from 'node:fs';
import { Script } from 'node:vm';

const [scriptFile, out] = process.argv.slice(2);
const length = readFileSync(scriptFile, 'latin1').length;
const head = '(async function () { process.stdout.write("PLANTED\\n"); })';
const script = new Script(head + ' '.repeat(length - head.length), { filename: scriptFile });
await script.runInThisContext()();
writeFileSync(out, script.createCachedData());
