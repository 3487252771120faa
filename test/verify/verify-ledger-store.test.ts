import { describe, expect, it } from 'vitest';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';

describe('verify: where the ledger fixtures ran', () => {
  it('without a database, a PostgreSQL ledger runs on SQLite as a stand-in and the report says so plainly', () => {
    const text = runCli(['verify', 'fixtures/examples/billing.yaml'], { env: { MCPRELY_DATABASE_URL: '' } });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^Ledger: the manifest keeps its ledger in PostgreSQL, but no database was given: 7 fixtures ran it on SQLite as a stand-in \(verify --database-url/m,
    );
    expect(text.stdout).toContain('no database was given, so SQLite stands in for it');
    const json = JSON.parse(
      runCli(['verify', 'fixtures/examples/billing.yaml', '-f', 'json'], { env: { MCPRELY_DATABASE_URL: '' } }).stdout,
    ) as {
      summary: { ledgerStandIns: number };
      fixtures: { kind: string; ledger?: unknown }[];
    };
    expect(json.summary.ledgerStandIns).toBe(7);
    expect(json.fixtures.find((fixture) => fixture.kind === 'two-connections-race-one-key')?.ledger).toEqual({
      declared: 'postgres',
      ranOn: 'sqlite',
      standIn: true,
    });
    // A manifest whose ledger is SQLite is no stand-in, and says nothing about PostgreSQL.
    const sqlite = runCli(['verify', 'fixtures/examples/flawed/process-local-ledger.yaml']);
    expect(sqlite.stdout).not.toMatch(/^Ledger:/m);
  });

  it('a database that cannot be reached stops verify at once (exit 2) with the place, never the password or a stack trace', () => {
    const run = runCli(['verify', 'fixtures/examples/billing.yaml', '--database-url', 'postgres://me:s3cret@127.0.0.1:9/ledgers']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: --database-url: PostgreSQL at 127\.0\.0\.1:9\/ledgers: connection refused; is the server running/m);
    expect(run.stderr + run.stdout).not.toContain('s3cret');
    expect(showsStackTrace(run.stderr)).toBe(false);
    const garbled = runCli(['verify', 'fixtures/examples/billing.yaml', '--database-url', 'not a url']);
    expect(garbled.status).toBe(2);
    expect(garbled.stderr).toMatch(/--database-url: .*postgres:\/\/ or postgresql:\/\/ URL/);
  });
});
