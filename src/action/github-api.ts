/** The few GitHub REST calls the action makes, over fetch, to GITHUB_API_URL (a loopback stand-in in tests). */
export interface Comment {
  readonly id: number;
  readonly body: string;
  readonly html_url: string;
  /** Who wrote it (REST names a bot `name[bot]`). */
  readonly user?: { readonly login?: string } | null;
}

export class GitHubApiError extends Error {
  override readonly name = 'GitHubApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class GitHubApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    /** The GraphQL endpoint (GITHUB_GRAPHQL_URL); by default the one beside the REST API. */
    private readonly graphqlUrl = defaultGraphqlUrl(baseUrl),
  ) {}

  /**
   * The login the token writes as: `GET /user` for a person's token; for the workflow's GITHUB_TOKEN or an app's
   * installation token, which `GET /user` refuses, GraphQL's `viewer` (the bot's login without `[bot]`).
   */
  async login(): Promise<string> {
    try {
      const user = (await this.call('GET', '/user')) as { login?: unknown };
      if (typeof user?.login === 'string' && user.login !== '') return user.login;
    } catch (error) {
      if (!(error instanceof GitHubApiError) || (error.status !== 401 && error.status !== 403)) throw error;
    }
    const answer = (await this.call('POST', this.graphqlUrl, { query: 'query { viewer { login } }' })) as {
      data?: { viewer?: { login?: unknown } };
    };
    const login = answer?.data?.viewer?.login;
    if (typeof login !== 'string' || login === '') throw new GitHubApiError(200, 'POST graphql: the answer names no viewer login');
    return login;
  }

  /** The issue's comments, a page of 100 at a time, at most `pages` pages. */
  async *comments(repository: string, issue: number, pages = 50): AsyncGenerator<Comment> {
    for (let page = 1; page <= pages; page++) {
      const batch = (await this.call('GET', `/repos/${repository}/issues/${issue}/comments?per_page=100&page=${page}`)) as Comment[];
      yield* batch;
      if (batch.length < 100) return;
    }
  }

  async createComment(repository: string, issue: number, body: string): Promise<Comment> {
    return (await this.call('POST', `/repos/${repository}/issues/${issue}/comments`, { body })) as Comment;
  }

  async updateComment(repository: string, id: number, body: string): Promise<Comment> {
    return (await this.call('PATCH', `/repos/${repository}/issues/comments/${id}`, { body })) as Comment;
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = /^https?:/.test(path) ? path : `${this.baseUrl.replace(/\/+$/, '')}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${this.token}`,
        'user-agent': 'mcprely-action',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (!response.ok) {
      let message = text.slice(0, 300);
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // not JSON; keep the text
      }
      throw new GitHubApiError(response.status, `${method} ${path}: HTTP ${response.status} ${message}`);
    }
    return text === '' ? undefined : JSON.parse(text);
  }
}

/** Whether a comment was written by `login` (REST adds `[bot]` to a bot's login; GraphQL's viewer does not). */
export function writtenBy(comment: Comment, login: string): boolean {
  const author = comment.user?.login;
  return author === login || author === `${login}[bot]`;
}

/** GraphQL beside REST: https://api.github.com/graphql, or https://host/api/graphql beside a server's /api/v3. */
function defaultGraphqlUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/api/v3') ? `${base.slice(0, -'/v3'.length)}/graphql` : `${base}/graphql`;
}
