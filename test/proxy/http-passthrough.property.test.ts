import { httpPassthroughSeeds } from './passthrough-suite.js';

// One seed (the HTTP passthrough's wiring); the other seeds in npm run test:live (passthrough-seeds.test.ts).
httpPassthroughSeeds([21]);
