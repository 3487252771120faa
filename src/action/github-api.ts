/** The few GitHub REST calls the action makes, over fetch, to GITHUB_API_URL (a loopback stand-in in tests). */
export interface Comment {
  readonly id: number;
  readonly body: string;
  readonly html_url: string;
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
  ) {}

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
    const response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
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
