import type { ApolloCache, Reference } from '@apollo/client';

/** Query.webhooks (oldest first): a new endpoint goes at the end (once). */
export function addWebhookToList(cache: ApolloCache, id: number): void {
  cache.modify<{ webhooks: readonly Reference[] }>({
    fields: {
      webhooks(existing, { toReference }) {
        const list = existing as readonly Reference[];
        const ref = toReference({ __typename: 'Webhook', id })!;
        return list.some((item) => item.__ref === ref.__ref) ? list : [...list, ref];
      },
    },
  });
}

/** A deleted endpoint leaves Query.webhooks and the cache. */
export function removeWebhook(cache: ApolloCache, id: number): void {
  const ref = cache.identify({ __typename: 'Webhook', id });
  cache.modify<{ webhooks: readonly Reference[] }>({
    fields: {
      webhooks(existing) {
        return (existing as readonly Reference[]).filter((item) => item.__ref !== ref);
      },
    },
  });
  cache.evict({ id: ref });
  cache.gc();
}

/** A new attempt (test send, redelivery) goes on top of the endpoint's delivery log. */
export function prependDelivery(cache: ApolloCache, webhookId: number, deliveryId: number): void {
  cache.modify<{ deliveries: { nodes: readonly Reference[] } }>({
    id: cache.identify({ __typename: 'Webhook', id: webhookId }),
    fields: {
      deliveries(existing, { toReference }) {
        const page = existing as unknown as { nodes: readonly Reference[] } | undefined;
        if (!page?.nodes) return existing;
        const ref = toReference({ __typename: 'WebhookDelivery', id: deliveryId })!;
        return page.nodes.some((n) => n.__ref === ref.__ref) ? page : { ...page, nodes: [ref, ...page.nodes] };
      },
    },
  });
}
