import { main } from './main.js';

// The GitHub Action's entry point: `node dist/action.js check|comment` (see action.yml).
process.exitCode = await main(process.argv[2], process.env);
