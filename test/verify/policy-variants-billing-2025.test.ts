import { variantSuite } from '../helpers/variant-suite.js';

// One file per example, so the examples' variants run on separate workers.
variantSuite('billing-2025.yaml');
