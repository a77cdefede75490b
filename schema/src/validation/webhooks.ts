/**
 * Webhooks (docs/webhooks.md): the event names, the limits and the messages, shared by the service and the web app.
 */
import { collect, type Check, hasNul, type FieldErrors } from './checks.js';

export const WEBHOOK_EVENT_TYPES = [
  'TICKET_CREATED',
  'TICKET_UPDATED',
  'TICKET_DELETED',
  'TICKET_NOTE_ADDED',
  'TICKET_REPLY_ADDED',
  'TICKET_REPLY_BOUNCED',
  'TICKET_REQUESTER_MESSAGE_ADDED',
  'CUSTOMER_CREATED',
  'CUSTOMER_UPDATED',
  'CUSTOMER_DELETED',
  'MACRO_CREATED',
  'MACRO_UPDATED',
  'MACRO_DELETED',
  'MESSAGE_CREATED',
  'MESSAGE_UPDATED',
  'MESSAGE_DELETED',
] as const;
export type WebhookEventTypeName = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_LIMITS = { urlLength: 2048, webhooksPerAgent: 20 } as const;
export const WEBHOOK_MESSAGES = {
  url: `URL must be an absolute https:// address of at most ${WEBHOOK_LIMITS.urlLength} characters.`,
  events: 'Choose at least one event.',
  eventUnknown: 'Unknown event type.',
  tooMany: `An agent may register at most ${WEBHOOK_LIMITS.webhooksPerAgent} webhooks; delete one first.`,
  /**
   * What an agent is told to do about an address that is not public: the setting that allows one
   * (FULCRUM_WEBHOOK_ALLOW_HOSTS) is the operator's, named in docs/webhooks.md, not in a message to an agent.
   */
  askToAllow: 'To deliver to an endpoint on your own network, ask your administrator to allow this address.',
  httpNotAllowed: 'URL must use https://. For an http:// endpoint on your own network, ask your administrator to allow this address.',
  /** An API token without the WEBHOOKS scope tried to manage webhooks (docs/webhooks.md, "Tokens and webhooks"). */
  tokenScope: 'Managing webhooks with an API token needs the WEBHOOKS scope; use the web app, or a token created with WEBHOOKS.',
  enabled: 'enabled must be true or false.',
  disabled: 'This endpoint is disabled; enable it first.',
  attemptInProgress: 'An attempt for this event is in progress; look at the log again in a minute.',
  deliveryCursor: 'Invalid cursor.',
  unavailable: 'Webhooks are not available on this server.',
} as const;

export interface WebhookFields {
  url: unknown;
  events: unknown;
}
/**
 * The checks of a webhook's URL and events that need no network, shared by the service (services/webhooks.ts, which
 * then checks the addresses the host resolves to, webhooks/ssrf.ts) and the web form. A field left out (undefined or
 * null) is not checked: an update changes only the fields it names; a create passes both.
 */
export function validateWebhook(input: Partial<WebhookFields>): FieldErrors {
  const { url, events } = input;
  const checks: Check[] = [];
  if (url !== undefined && url !== null) {
    checks.push(['url', typeof url === 'string' && url.trim() !== '' && url.length <= WEBHOOK_LIMITS.urlLength && !hasNul(url), WEBHOOK_MESSAGES.url]);
  }
  if (events !== undefined && events !== null) {
    const list = Array.isArray(events) && events.length > 0;
    checks.push(['events', list, WEBHOOK_MESSAGES.events]);
    if (list) checks.push(['events', events.every((e) => (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(e)), WEBHOOK_MESSAGES.eventUnknown]);
  }
  return collect(checks);
}
