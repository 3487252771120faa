import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { SpecVersion } from '../../src/spec/revisions.js';

/**
 * A validator of the messages a server sends, from the specification's own JSON schema of each revision (vendored in
 * mcp-schema/, see SOURCE.md): the JSON-RPC envelope, then the typed definition — a result by the method of the
 * request it answers (`tools/list` → ListToolsResult), an error by its code where the revision types it
 * (HeaderMismatchError, InvalidParamsError…), a notification by its method.
 */

type Json = Record<string, unknown>;
type Defs = Record<string, { properties?: Record<string, { const?: unknown; allOf?: unknown }> }>;

/** The union definitions that carry a method but are not that method's own definition. */
const UNIONS = new Set(['ClientRequest', 'ClientNotification', 'ClientResult', 'ServerRequest', 'ServerNotification', 'ServerResult']);

export interface WireValidator {
  /** What is wrong with `message` (a message the server sent), answering a request of `requestMethod` when it is a response. */
  problems(message: unknown, requestMethod?: string): string[];
}

export function wireValidator(revision: SpecVersion): WireValidator {
  const schema = JSON.parse(readFileSync(new URL(`./mcp-schema/${revision}.schema.json`, import.meta.url), 'utf8')) as Json;
  const id = `mcp://${revision}/schema.json`;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...schema, $id: id });
  const defs = schema['$defs'] as Defs;
  const compiled = new Map<string, ValidateFunction>();
  const check = (name: string, value: unknown): string[] => {
    if (defs[name] === undefined) return [`the ${revision} schema has no definition ${name}`];
    let validate = compiled.get(name);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `${id}#/$defs/${name}` });
      compiled.set(name, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${name}${error.instancePath} ${error.message}`);
  };
  const byMethod = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    const method = def.properties?.['method']?.const;
    if (typeof method === 'string' && !UNIONS.has(name)) byMethod.set(method, name);
  }
  /** The result definition of a request's method: `<Name>Result`, or EmptyResult where the schema has none of its own (ping). */
  const resultOf = (method: string): string => {
    const request = byMethod.get(method);
    const own = request?.endsWith('Request') ? `${request.slice(0, -'Request'.length)}Result` : undefined;
    return own !== undefined && own in defs ? own : 'EmptyResult';
  };
  /** The definitions that type an error code: whole error responses (HeaderMismatchError) or error objects (InvalidParamsError). */
  const errorDefs = new Map<number, { name: string; whole: boolean }>();
  for (const [name, def] of Object.entries(defs)) {
    const code = def.properties?.['code']?.const;
    if (typeof code === 'number') errorDefs.set(code, { name, whole: false });
    for (const part of (def.properties?.['error']?.allOf as { properties?: { code?: { const?: unknown } } }[] | undefined) ?? []) {
      const whole = part.properties?.code?.const;
      if (typeof whole === 'number') errorDefs.set(whole, { name, whole: true });
    }
  }
  return {
    problems(value, requestMethod) {
      const message = value as Json;
      // JSON-RPC 2.0 (§5) answers a request whose id could not be read with id null; the MCP schema types the id as
      // optional and never null. The official conformance suite makes the same exception.
      const envelope = message['id'] === null && 'error' in message ? { ...message, id: undefined } : message;
      const problems = check('JSONRPCMessage', JSON.parse(JSON.stringify(envelope)));
      if ('result' in message) {
        if (requestMethod === undefined) return [...problems, 'a result that answers no request this test sent'];
        return [...problems, ...check(resultOf(requestMethod), message['result'])];
      }
      if ('error' in message) {
        const code = (message['error'] as Json | undefined)?.['code'];
        const typed = typeof code === 'number' ? errorDefs.get(code) : undefined;
        if (typed === undefined) return problems;
        return [...problems, ...check(typed.name, typed.whole ? envelope : message['error'])];
      }
      const method = message['method'];
      const definition = typeof method === 'string' ? byMethod.get(method) : undefined;
      if (definition === undefined) return [...problems, `the ${revision} schema has no message ${String(method)}`];
      return [...problems, ...check(definition, message)];
    },
  };
}
