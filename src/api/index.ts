// mcprely's Node API: what `import … from 'mcprely'` gives. Each function takes its command's options as values and
// returns a typed result; none prints or exits (the CLI and the GitHub Action print what they return).
export { type CatalogOptions, type CatalogOutcome, catalog } from './catalog.js';
export type { CatalogEntry, CatalogKind, CatalogParty } from '../catalog/catalog-entry.js';
export { type AuditedTrace, type AuditOptions, type AuditOutcome, audit, type SessionJudgeOptions } from './audit.js';
export { type EvidenceOptions, type EvidenceOutcome, type EvidenceWritten, evidence } from './evidence.js';
export type { LiveCallOptions } from './live-call-options.js';
export type { LiveServer } from './live-fixtures-of.js';
export { type FixturesOptions, type FixturesOutcome, fixtures } from './fixtures.js';
export type { Fixture } from '../fixtures/fixture-types.js';
export { type LintOptions, type LintOutcome, lint } from './lint.js';
export {
  type ManifestFromServerOptions,
  type ManifestFromServerOutcome,
  manifestFromServer,
} from './manifest-from-server.js';
export {
  type ManifestFromToolsOptions,
  type ManifestFromToolsOutcome,
  manifestFromTools,
} from './manifest-from-tools.js';
export type { CheckLimit, OnProbeEvent, OnProgress, ProbeEvent, Stall } from './on-progress.js';
export { type ProbeOptions, type ProbeOutcome, probe } from './probe.js';
export {
  type Interruption,
  type JudgedClientSession,
  type ProbeClientOptions,
  type ProbeClientOutcome,
  probeClient,
} from './probe-client.js';
export { type ReviewOptions, type ReviewOutcome, review } from './review.js';
export { type LiveVerification, type ReferenceVerification, type VerifyOptions, type VerifyResult, verify } from './verify.js';
export type { Finding, Severity } from '../findings/finding.js';
export type { FileReport } from '../lint/file-report.js';
export type { LintResult, LintSummary } from '../lint/lint-result.js';
