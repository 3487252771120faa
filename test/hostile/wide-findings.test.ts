import { FORMATTERS } from '../../src/report/formats.js';
import { wideFindings } from './wide-findings.js';

// Load: 150 000 findings in every format (npm run test:live); npm test runs the default format (deep-and-wide.test.ts).
wideFindings(Object.keys(FORMATTERS) as (keyof typeof FORMATTERS)[]);
