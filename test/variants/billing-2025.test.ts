import { variantSuite } from '../helpers/variant-suite.js';

// Every variant of the example (npm run test:variants, run by .ci/run); npm test runs a sample of each.
variantSuite('billing-2025.yaml', { all: true });
