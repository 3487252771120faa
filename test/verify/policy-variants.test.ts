import { variantSuite } from '../helpers/variant-suite.js';

// A spread sample of each bundled clean example's variants; test/variants/ (npm run test:variants) runs them all.
for (const example of ['billing.yaml', 'billing-2025.yaml', 'inventory.yaml', 'docs-search.yaml']) variantSuite(example, { every: 15 });
