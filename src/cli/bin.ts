import { endQuietlyOnClosedOutput } from './closed-output.js';
import { main } from './main.js';

endQuietlyOnClosedOutput();
await main(process.argv);
