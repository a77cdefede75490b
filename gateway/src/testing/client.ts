import { DEMO_ACCOUNTS } from '@fulcrum/schema';

/** A tiny HTTP client with one cookie jar, for tests and benchmarks: REST calls, GraphQL, multipart uploads. */
export interface GqlResult<T = Record<string, any>> {
  status: number;
  data?: T | null;
  errors?: {
    message: string;
    path?: (string | number)[];
    extensions?: { code?: string; field?: string; fields?: Record<string, string[]>; retryAfter?: number };
  }[];
  headers: Headers;
}

export interface RestResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A GraphQL result's data; throws with the errors when it has any (the tests' "this call must succeed"). */
export function dataOf(result: { data?: Record<string, any> | null; errors?: unknown }): Record<string, any> {
  if (result.errors !== undefined) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data!;
}

export class TestClient {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  setCookieHeader(header: string): void {
    this.cookies.clear();
    for (const part of header.split(/;\s*/)) {
      const [k, ...v] = part.split('=');
      if (k) this.cookies.set(k, v.join('='));
    }
  }

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const [name, ...value] = pair.split('=');
      const expired = attrs.some((a) => /^\s*expires=/i.test(a) && new Date(a.split('=')[1]).getTime() < Date.now());
      if (expired || value.join('=') === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join('='));
    }
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size && !headers.has('cookie')) headers.set('cookie', this.cookieHeader);
    const res = await fetch(this.baseUrl + path, { ...init, headers, redirect: 'manual' });
    this.remember(res);
    return res;
  }

  async rest<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RestResult<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await this.fetch(path, init);
    return { status: res.status, body: parseBody(await res.text()) as T, headers: res.headers };
  }

  get = <T = any>(path: string, headers?: Record<string, string>) => this.rest<T>('GET', path, undefined, headers);
  post = <T = any>(path: string, body?: unknown) => this.rest<T>('POST', path, body);
  put = <T = any>(path: string, body?: unknown) => this.rest<T>('PUT', path, body);

  async upload<T = any>(
    method: 'POST' | 'PUT',
    path: string,
    file: { data: Buffer; name?: string; type?: string } | null,
    field = 'image',
  ): Promise<RestResult<T>> {
    const form = new FormData();
    if (file) form.append(field, new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/png' }), file.name ?? 'image.png');
    const res = await this.fetch(path, { method, body: form });
    return { status: res.status, body: parseBody(await res.text()) as T, headers: res.headers };
  }

  /** A GraphQL POST, with extra headers when asked (client address, origin...); a body that is not JSON becomes one error. */
  async gql<T = Record<string, any>>(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<GqlResult<T>> {
    const res = await this.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, headers: res.headers, ...gqlBody<T>(await res.text()) };
  }

  /** A GraphQL multipart request with a list of files in `variables.<listVariable>` (replyToRequester's attachments). */
  async gqlUploads<T = Record<string, any>>(
    query: string,
    variables: Record<string, unknown>,
    listVariable: string,
    files: readonly { data: Buffer; name?: string; type?: string }[],
  ): Promise<GqlResult<T>> {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query, variables: { ...variables, [listVariable]: files.map(() => null) } }));
    form.append('map', JSON.stringify(Object.fromEntries(files.map((_, i) => [String(i), [`variables.${listVariable}.${i}`]]))));
    files.forEach((file, i) =>
      form.append(String(i), new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name ?? `file-${i}`),
    );
    const res = await this.fetch('/graphql', { method: 'POST', headers: { 'apollo-require-preflight': 'true' }, body: form });
    return { status: res.status, headers: res.headers, ...gqlBody<T>(await res.text()) };
  }

  /** A GraphQL multipart request (graphql-multipart-request-spec) with one file in `variables.<fileVariable>`. */
  async gqlUpload<T = Record<string, any>>(
    query: string,
    variables: Record<string, unknown>,
    fileVariable: string,
    file: { data: Buffer; name?: string; type?: string },
    headers: Record<string, string> = {},
  ): Promise<GqlResult<T>> {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query, variables: { ...variables, [fileVariable]: null } }));
    form.append('map', JSON.stringify({ 0: [`variables.${fileVariable}`] }));
    form.append('0', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/png' }), file.name ?? 'image.png');
    const res = await this.fetch('/graphql', { method: 'POST', headers: { 'apollo-require-preflight': 'true', ...headers }, body: form });
    return { status: res.status, headers: res.headers, ...gqlBody<T>(await res.text()) };
  }

  async login(email: string, password: string): Promise<this> {
    const res = await this.post('/api/auth/login', { email, password });
    if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return this;
  }
}

/** New clients of one gateway. */
export interface GatewayClients {
  /** A signed-out client. */
  client(): TestClient;
  /** A client signed in as demo account 0 (Demo), 1 (Marnie) or 2 (Bobbie). */
  as(index: 0 | 1 | 2): Promise<TestClient>;
}

export function clientsOf(url: string): GatewayClients {
  return {
    client: () => new TestClient(url),
    as: (index) => new TestClient(url).login(DEMO_ACCOUNTS[index].email, DEMO_ACCOUNTS[index].password),
  };
}

/** The same session on another gateway: a new client there with this client's cookies. */
export function carry(client: TestClient, to: { url: string }): TestClient {
  const other = new TestClient(to.url);
  other.setCookieHeader(client.cookieHeader);
  return other;
}

/** JSON when the body is JSON; otherwise the text itself, so a test can assert on it. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function gqlBody<T>(text: string): Omit<GqlResult<T>, 'status' | 'headers'> {
  const body = parseBody(text);
  return body && typeof body === 'object' ? body : { errors: [{ message: text }] };
}
