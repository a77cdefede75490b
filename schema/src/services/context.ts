import type { Em, Orm } from '../database.js';
import { TICKET_CHANNELS } from '../conditions/registry.js';
import { AppError } from '../errors.js';
import type { EventBus } from '../realtime/events.js';
import type { AuthLimiter } from './authLimiter.js';
import type { Presence } from '../realtime/presence.js';
import type { ApiScopeName } from '../validation/rules.js';
import type { WebhookEngine } from '../webhooks/engine.js';

/** Who a bearer request acts as (an API token, services/apiTokens.ts), and what it may do. */
export interface ApiCredential {
  tokenId: number;
  userId: number;
  scopes: ApiScopeName[];
}

/** What a transport must supply to change the caller's session (express-session behind both). */
export interface SessionPort {
  /** The current session id, if any. */
  readonly id: string | undefined;
  /**
   * Issue a fresh session id (no fixation) bound to this user; a previous session of the caller ends. True when
   * the transport has already announced that end on the event bus (`sessionEnded`), so the service does not.
   */
  signIn(userId: number): Promise<boolean>;
  /** Destroy the session server-side. True when the transport has already announced its end, as for signIn. */
  signOut(): Promise<boolean>;
}

/** Long-lived parts, built once per process by the gateway. */
export interface ServiceDeps {
  orm: Orm;
  bus: EventBus;
  limiter: AuthLimiter;
  /** Who is online, and the typing throttle (realtime/presence.ts). */
  presence: Presence;
  /** The webhook delivery engine (URL checks at registration, test sends and redeliveries). */
  webhooks?: WebhookEngine;
  /** Mail to requesters and their links (docs/email.md); absent: no mail server, links on a default secret. */
  mail?: MailSettings;
}

/** How replies reach requesters (docs/email.md). */
export interface MailSettings {
  /** SMTP_URL is set: replies are queued in the mail outbox; otherwise they are kept as NOT_CONFIGURED. */
  configured: boolean;
  /** FULCRUM_MAIL_FROM: the From of every mail. */
  from: string;
  /** FULCRUM_PUBLIC_URL (default: the address the gateway listens on): the base of requester links. */
  publicUrl: string;
  /** The server's secret the requester links' tokens are derived from (never sent, never stored beside them). */
  linkSecret: string;
  /** FULCRUM_MAIL_DEFAULT_AGENT: the email of the agent who owns mail from new addresses. */
  defaultAgent?: string;
  /** FULCRUM_MAIL_DEFAULT_TEAM: the team (name or id) that gets tickets from new addresses instead. */
  defaultTeam?: string;
  /** Wakes this process's mail sender once a transaction that queued mail has committed. */
  wake?: () => void;
}

/**
 * The door a change came through, as the event record (ticket_events.via) and GraphQL (`ChangeSource`) name it:
 * WEB is GraphQL with a session cookie, API_TOKEN GraphQL with a bearer token, REST the `/api` facade, SYSTEM a
 * change no caller made, EMAIL a requester's mail (a later version), REQUESTER_PAGE the requester's page (/r/<token>).
 */
export const CHANGE_SOURCES = TICKET_CHANNELS;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

/** Who made a change, as the event record names them: an agent, an API token (acting as its agent), the system. */
export const ACTOR_KINDS = ['AGENT', 'API_TOKEN', 'SYSTEM', 'REQUESTER'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** One per HTTP request or websocket operation: a fresh em.fork() and the caller. */
export interface ServiceContext {
  em: Em;
  viewerId: number | null;
  deps: ServiceDeps;
  session?: SessionPort;
  /** Client address, for rate limits. */
  clientIp: string;
  /** Set when the caller authenticated with an API token (Authorization: Bearer) instead of a session. */
  token?: ApiCredential;
  /** The door the request came through (set by the transport that built the context). */
  via: ChangeSource;
  /** Set when the ticket's requester acts (through their link): the actor of the change is REQUESTER. */
  requester?: { name: string };
}

/** The actor of a change the caller makes: its kind and user (null for the system). */
export function actorOf(ctx: Pick<ServiceContext, 'viewerId' | 'token' | 'requester'>): { kind: ActorKind; userId: number | null; name?: string } {
  if (ctx.requester) return { kind: 'REQUESTER', userId: null, name: ctx.requester.name };
  if (ctx.viewerId == null) return { kind: 'SYSTEM', userId: null };
  return { kind: ctx.token ? 'API_TOKEN' : 'AGENT', userId: ctx.viewerId };
}

export function requireViewer(ctx: ServiceContext): number {
  if (ctx.viewerId == null) throw AppError.unauthenticated();
  return ctx.viewerId;
}

/** Ids arrive as numbers (GraphQL Int), numeric strings (REST paths, legacy bodies) or garbage. */
export function parseId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) {
    const n = Number(value.trim());
    return n > 0 ? n : null;
  }
  return null;
}
