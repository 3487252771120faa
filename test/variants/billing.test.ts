import { variantSuite } from '../helpers/variant-suite.js';

// Every variant of the example (npm run test:variants, run by .ci/run); npm test runs a sample of each.
variantSuite('billing.yaml', { all: true });
