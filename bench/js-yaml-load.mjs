// The throughput floor: js-yaml only loading the files, nothing else.
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';

let operations = 0;
for (const path of process.argv.slice(2)) operations += load(readFileSync(path, 'utf8')).operations.length;
if (operations === 0) process.exitCode = 1;
