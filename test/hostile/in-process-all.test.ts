import { hostileInProcessSuite } from './in-process-suite.js';

// Every hostile input through every stage in process, and sixty random draws (npm run test:hostile); npm test runs a sample.
hostileInProcessSuite('all');
