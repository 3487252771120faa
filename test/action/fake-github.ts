import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the stand-in for the GitHub REST API received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body?: { body?: string; query?: string };
}

interface StoredComment {
  id: number;
  body: string;
  html_url: string;
  user: { login: string; type: string };
}

/** Who the token is, as GitHub answers: a person's token (`GET /user` names them) or the workflow's GITHUB_TOKEN (a bot). */
export type Identity =
  | { readonly kind: 'person'; readonly login: string }
  | { readonly kind: 'bot'; readonly app: string }
  /** A token GitHub names to neither GET /user nor GraphQL's viewer. */
  | { readonly kind: 'unnamed'; readonly writesAs: string };

/**
 * A small HTTP server on loopback standing in for the GitHub REST API's issue comments: list (paged, 100 at
 * most), create and update, as `api.github.com` answers them. `refuse` makes it answer writes with 403 as it
 * does for a fork's read-only token.
 */
export class FakeGitHub {
  readonly requests: ReceivedRequest[] = [];
  readonly comments = new Map<string, StoredComment[]>();
  refuse = false;
  /** The token's identity: by default the workflow's GITHUB_TOKEN, which writes as github-actions[bot]. */
  identity: Identity = { kind: 'bot', app: 'github-actions' };
  #nextId = 1000;
  #server: Server | undefined;
  url = '';

  constructor(private readonly token: string) {}

  /** The login REST shows on what this token writes. */
  get author(): string {
    const identity = this.identity;
    return identity.kind === 'person' ? identity.login : identity.kind === 'bot' ? `${identity.app}[bot]` : identity.writesAs;
  }

  seed(repository: string, issue: number, body: string, author = this.author): StoredComment {
    const comment = {
      id: this.#nextId++,
      body,
      html_url: `https://github.com/${repository}/pull/${issue}#issuecomment-${this.#nextId}`,
      user: { login: author, type: author.endsWith('[bot]') ? 'Bot' : 'User' },
    };
    this.#list(`${repository}#${issue}`).push(comment);
    return comment;
  }

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      void this.#answer(request).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(body === undefined ? '' : JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  #list(key: string): StoredComment[] {
    const list = this.comments.get(key) ?? [];
    this.comments.set(key, list);
    return list;
  }

  async #answer(request: IncomingMessage): Promise<{ status: number; body?: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? undefined : (JSON.parse(text) as { body?: string; query?: string });
    const url = new URL(request.url ?? '/', 'http://localhost');
    this.requests.push({
      method: request.method ?? '',
      path: url.pathname + url.search,
      authorization: request.headers.authorization,
      ...(body === undefined ? {} : { body }),
    });
    if (request.headers.authorization !== `Bearer ${this.token}`) return { status: 401, body: { message: 'Bad credentials' } };
    if (url.pathname === '/user' && request.method === 'GET')
      return this.identity.kind === 'person'
        ? { status: 200, body: { login: this.identity.login, type: 'User' } }
        : { status: 403, body: { message: 'Resource not accessible by integration' } };
    if (url.pathname === '/graphql' && request.method === 'POST' && this.identity.kind === 'unnamed')
      return { status: 403, body: { message: 'Resource not accessible by integration' } };
    if (url.pathname === '/graphql' && request.method === 'POST')
      return {
        status: 200,
        body: {
          data: { viewer: { login: this.identity.kind === 'person' ? this.identity.login : (this.identity as { app: string }).app } },
        },
      };
    const list = /^\/repos\/([\w.-]+\/[\w.-]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
    const one = /^\/repos\/([\w.-]+\/[\w.-]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (list !== null && request.method === 'GET') {
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
      const page = Number(url.searchParams.get('page') ?? 1);
      return { status: 200, body: this.#list(`${list[1]}#${list[2]}`).slice((page - 1) * perPage, page * perPage) };
    }
    if (this.refuse) return { status: 403, body: { message: 'Resource not accessible by integration' } };
    if (list !== null && request.method === 'POST') {
      if (typeof body?.body !== 'string') return { status: 422, body: { message: 'Validation Failed' } };
      if (body.body.length > 65_536) return { status: 422, body: { message: 'Body is too long (maximum is 65536 characters)' } };
      return { status: 201, body: this.seed(list[1]!, Number(list[2]), body.body) };
    }
    if (one !== null && request.method === 'PATCH') {
      if (typeof body?.body !== 'string') return { status: 422, body: { message: 'Validation Failed' } };
      if (body.body.length > 65_536) return { status: 422, body: { message: 'Body is too long (maximum is 65536 characters)' } };
      for (const comments of this.comments.values()) {
        const found = comments.find((comment) => comment.id === Number(one[2]));
        if (found !== undefined) {
          found.body = body.body;
          return { status: 200, body: found };
        }
      }
      return { status: 404, body: { message: 'Not Found' } };
    }
    return { status: 404, body: { message: 'Not Found' } };
  }
}
