import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteLedger } from '../../src/reference/idempotency-ledger.js';
import { ledgerContract } from './ledger-contract.js';

// The SQLite half of the ledger contract; the PostgreSQL half is test/postgres/ledger-postgres.test.ts (npm run test:postgres).
ledgerContract('SQLite', async (options = {}) =>
  sqliteLedger(join(mkdtempSync(join(tmpdir(), 'mcprely-contract-')), 'ledger.sqlite'), { create: true, ...options }),
);
