import type { Finding } from '../findings/finding.js';
import { fixtureParameters } from '../fixtures/fixture-parameters.js';
import type { Fixture } from '../fixtures/fixture-types.js';
import type { LoadedManifest } from '../manifest/load.js';
import { retryClassOf } from './retry-class.js';
import { raceTable } from './race-table.js';
import type { OperationReview, Review } from './review-types.js';
import { cancellationWire, deadlines, flowControl, idempotencyBoundary, reconnect, retrySummary, tasks } from './sections.js';
import { verdict } from './verdict.js';

/** The review of a valid manifest, from its lint findings and its fixtures. Pure. */
export function buildReview(manifest: LoadedManifest, findings: readonly Finding[], fixtures: readonly Fixture[]): Review {
  const { specVersion, server } = manifest.manifest;
  const replicas = server.replicas ?? 1;
  const operations = manifest.operations.map((resolved): OperationReview => {
    const spec = resolved.spec;
    const transports = spec.transports ?? server.transports;
    const parameters = fixtureParameters(manifest.manifest, resolved);
    const retry = retryClassOf(spec);
    const own = findings.filter((finding) => finding.path.startsWith(`/operations/${resolved.index}/`) || finding.path === `/operations/${resolved.index}`);
    return {
      name: spec.name,
      method: spec.method,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      sideEffect: spec.sideEffect ?? 'not declared (reviewed as a mutation)',
      transports,
      cancellationWire: cancellationWire(spec, transports, specVersion),
      raceTable: raceTable({ operation: spec, specVersion, transport: transports.includes('streamable-http') ? 'streamable-http' : 'stdio', parameters, retry: retry.classification }),
      deadlines: deadlines(parameters),
      retry: { classification: retry.classification, reason: retry.reason, ...retrySummary(spec) },
      idempotencyBoundary: idempotencyBoundary(spec, replicas),
      flowControl: flowControl(spec, parameters),
      reconnect: reconnect(spec, specVersion, retry.classification),
      tasks: tasks(spec, specVersion),
      findings: own,
      fixtures: fixtures.filter((fixture) => fixture.operation === spec.name).map((fixture) => fixture.id),
      verdict: verdict(spec, parameters, own),
    };
  });
  const otherFindings = findings.filter((finding) => !finding.path.startsWith('/operations/'));
  const productionReady = operations.every((operation) => operation.verdict.productionReady) && !otherFindings.some((finding) => finding.severity === 'error' && finding.suppression === undefined);
  return { version: 1, file: manifest.file, server: server.name, specVersion, replicas, operations, otherFindings, productionReady };
}
