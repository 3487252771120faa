import { hostileInProcessSuite } from './in-process-suite.js';

// One hostile input of each class and ten random draws; npm run test:hostile runs every input (in-process-all.test.ts).
hostileInProcessSuite('sample');
