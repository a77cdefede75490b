// One throughput run: autocannon's programmatic API in its own process, pinned to the load core by bench/lib.ts.
// Not the autocannon CLI: it reads a body file (`-i`) as UTF-8, which mangles a binary body (the PNG of the
// multipart GraphQL write), so every such request was refused with a GraphQL error that still answered 200.
// Here the body goes out byte for byte, and with `graphql` set every answer is parsed: one with `errors` (or not
// JSON) counts as a mismatch, reported in the row like a non-2xx. Input: a JSON spec file as argv[2] (the body
// in a second file, `bodyFile`, or `requests`: a list of {path, body, headers} sent in turn, request n of the run taking entry
// n modulo the list's length whichever connection sends it); prints autocannon's result as one JSON line.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));

function graphqlOk(body) {
  try {
    const parsed = JSON.parse(body);
    return !parsed.errors && parsed.data != null;
  } catch {
    return false;
  }
}

let sent = 0;
const turns = spec.requests?.length
  ? [
      {
        setupRequest: (request) => {
          const next = spec.requests[sent++ % spec.requests.length];
          return {
            ...request,
            ...(next.path !== undefined && { path: next.path }),
            ...(next.body !== undefined && { body: next.body }),
            ...(next.headers && { headers: { ...request.headers, ...next.headers } }),
          };
        },
      },
    ]
  : undefined;

const result = await autocannon({
  url: spec.url,
  method: spec.method ?? 'GET',
  headers: spec.headers ?? {},
  body: spec.bodyFile ? readFileSync(spec.bodyFile) : undefined,
  connections: spec.connections ?? 50,
  duration: spec.seconds ?? 10,
  verifyBody: spec.graphql ? graphqlOk : undefined,
  requests: turns,
});
process.stdout.write(`${JSON.stringify(result)}\n`);
