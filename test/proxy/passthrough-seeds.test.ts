import { httpPassthroughSeeds, lineTapSeeds, stdioPassthroughSeeds } from './passthrough-suite.js';

// The passthrough properties' seeds npm test leaves out (it runs 1, 2, 11 and 21): npm run test:live.
lineTapSeeds([3, 4, 5, 6, 7, 8]);
stdioPassthroughSeeds([12, 13]);
httpPassthroughSeeds([22, 23]);
