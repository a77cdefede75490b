/**
 * Fulcrum example integration. With FULCRUM_URL and FULCRUM_TOKEN set:
 *   npm start -w examples/integration               who am I, then every customer, page by page
 *   npm start -w examples/integration -- watch 3    print the next 3 customer directory changes, then exit
 * Prints one JSON object per line, so another program (or a test) can read it.
 */
import { configFromEnv, createFulcrum } from './client.js';
import { CustomerEvents, CustomersPage, Viewer } from './documents.js';
import type { CustomersPageQuery } from './gql/graphql.js';

const print = (value: unknown) => console.log(JSON.stringify(value));

async function listCustomers(fulcrum: ReturnType<typeof createFulcrum>) {
  const { me } = await fulcrum.request(Viewer);
  print({ viewer: me?.username ?? null });
  let after: string | null = null;
  let pages = 0;
  const ids = new Set<number>();
  let totalCount = 0;
  do {
    const { customers }: CustomersPageQuery = await fulcrum.request(CustomersPage, { first: 100, after });
    pages += 1;
    totalCount = customers.totalCount;
    for (const customer of customers.nodes) ids.add(customer.id);
    after = customers.pageInfo.hasNextPage ? (customers.pageInfo.endCursor ?? null) : null;
  } while (after);
  print({ customers: ids.size, totalCount, pages });
}

async function watch(fulcrum: ReturnType<typeof createFulcrum>, count: number) {
  await new Promise<void>((resolve, reject) => {
    let seen = 0;
    const stop = fulcrum.subscribe(
      CustomerEvents,
      {},
      {
        connected: () => print({ subscribed: 'customerEvents' }),
        next: ({ customerEvents }) => {
          print({ event: customerEvents.kind, id: customerEvents.id, name: customerEvents.customer?.name ?? null });
          if (++seen >= count) {
            stop();
            resolve();
          }
        },
        error: reject,
      },
    );
  });
}

const fulcrum = createFulcrum(configFromEnv());
try {
  const [command = 'list', count = '1'] = process.argv.slice(2);
  if (command === 'watch') await watch(fulcrum, Number(count));
  else await listCustomers(fulcrum);
} catch (error) {
  print({ error: error instanceof Error ? error.message : String(error), code: (error as { code?: string }).code });
  process.exitCode = 1;
} finally {
  void fulcrum.close();
}
