/**
 * Every validation rule and message of SPEC.md section 5 (and the limits of section 9), defined once.
 * Decorator-free and dependency-free on purpose: the gateway's services and the web app's forms both import it.
 */

export const LIMITS = {
  password: { min: 6, max: 20 },
  username: { min: 3, max: 30 },
  ticketTitle: { min: 1, max: 40 },
  ticketDescription: { min: 3, max: 2000 },
  customerName: { min: 2, max: 50 },
  macroName: { min: 2, max: 50 },
  macroDescription: { min: 1, max: 2000 },
  message: { min: 1, max: 2000 },
  /** An internal note on a ticket (issue 24). */
  ticketNote: { min: 1, max: 10_000 },
  /** Longest email we store; not in the spec, but an unbounded column is an invitation. */
  email: { max: 255 },
  /** Upload size limit for ticket images. */
  imageBytes: 5 * 1024 * 1024,
  /** Pixels (width x height) of a ticket image: what it costs to decode (8000 x 8000 would be 192 MB as RGB). */
  imagePixels: 50_000_000,
  /** Files attached to one reply to the requester (issue 25): how many, and each one's size (the image limit). */
  replyAttachments: { max: 5 },
  /** An attachment's file name, in characters (no path, no control characters). */
  attachmentName: { max: 200 },
  /** The dashboard search box: longer input is refused with MESSAGES.searchLength (no engine sees it). */
  search: { max: 200 },
  /** A team's name (issue 27), after trimming. */
  teamName: { min: 1, max: 50 },
} as const;

export const MESSAGES = {
  confirmPassword: 'Confirm Password field must be the same',
  confirmPasswordPage: 'Confirm Password field must be the same as the Password field',
  password: 'Password must be between 6 and 20 characters.',
  email: 'Please provide a valid email',
  username: 'Username must be between 3 and 30 characters',
  ticketTitle: 'Title must be between 1 and 40 characters.',
  ticketRequester: 'Requester is required.',
  ticketDescription: 'Description must be between 3 and 2000 characters.',
  ticketImage: 'Image is Required',
  customerName: 'Name must be between 2 and 50 characters.',
  macroName: 'Name must be between 2 and 50 characters.',
  macroDescription: 'Description must be between 1 and 2000 characters.',
  customerUnique: 'Email Already Exists',
  customerCreateFailed: 'An error occurred while creating customer',
  message: 'Message must be between 1 and 2000 characters.',
  ticketNote: 'Note must be between 1 and 10,000 characters.',
  ticketReply: 'Reply must be between 1 and 10,000 characters.',
  requesterMessage: 'Your message must be between 1 and 10,000 characters.',
  invalidNoteId: 'Invalid note id.',
  macroPermanent: 'This Option Is Permanent',
  macroSharing: 'Sharing must be one of PRIVATE, TEAM, EVERYONE.',
  macroTeam: 'Choose one of your teams to share the macro with.',
  macroEveryone: 'Only an admin can share a macro with everyone.',
  macroNotYours: 'Only its author or an admin can change this macro.',
  customerHint: 'Please provide name and email.',
  macroHint: 'Please provide name and description.',
  serverError: 'Something went wrong. Please try again',
  // Server-side messages the REST contract names (not in SPEC section 5).
  loginFailed: 'Email or password is incorrect.',
  emailInUse: 'Email address is already in use.',
  usernameInUse: 'Username is already in use.',
  // Says only that tickets name the customer: how many would count other agents' tickets too (issue 22).
  customerInUse: 'This customer is the requester of tickets and cannot be deleted. Change the requester of those tickets first.',
  imageType: 'Image must be a PNG, JPEG, GIF or WebP file.',
  imageSize: 'Image must be 5 MB or smaller.',
  imageDimensions: 'Image must be at most 8000 x 8000 pixels.',
  imagePixels: 'Image must be at most 50 megapixels (width x height, e.g. 8000 x 6000). Scale it down and try again.',
  required: 'This field is required.',
  ticketType: 'Type must be one of Question, Incident, Problem, Task.',
  ticketPriority: 'Priority must be one of Low, Medium, High, Urgent.',
  ticketMacro: 'Macro not found.',
  /** Another agent named as a ticket's assignee (the access rule: services/ticketAccess.ts). */
  ticketAssignee: 'Tickets can only be assigned to yourself.',
  ticketRequesterUnknown: 'Requester not found.',
  // Teams and assignment (issue 27).
  teamName: 'Team name must be 1 to 50 characters.',
  teamNameTaken: 'A team with this name already exists.',
  teamUnknown: 'Team not found.',
  userUnknown: 'Agent not found.',
  role: 'Role must be ADMIN or AGENT.',
  lastAdmin: 'The last admin cannot be demoted: make another agent an admin first.',
  assigneeNotMember: "The assignee must be a member of the ticket's team.",
  assignmentNeedsOwner: 'A ticket without a team needs an assignee.',
  autoAssignEnabled: 'Auto-assign must be on (true) or off (false).',
  expectedVersion: '`expectedVersion` must be a whole number from 1.',
  versionConflict: 'The ticket changed since you loaded it: reload it and try again.',
  adminOnly: 'Only an admin may do this.',
  pageSize: '`first` must be a whole number from 1 to 100.',
  pageCursor: 'Invalid cursor: pass the endCursor of the previous page of the same list (same filter and order), or start again from the first page.',
  ticketStatus: 'Status must be one of OPEN, PENDING, SOLVED.',
  searchLength: 'Search must be at most 200 characters. Shorten it and try again.',
  // The message center's read state, presence and typing (issue 13).
  invalidUserId: 'Invalid user id.',
  invalidMessageId: 'Invalid message id.',
  conversationWithSelf: 'Pick another agent: you have no conversation with yourself.',
  messageToSelf: 'You cannot send a message to yourself.',
  /** Truncated or damaged files, and files with something else hidden after the image (polyglots). */
  imageDamaged: 'Image file is damaged, incomplete, or has other content attached.',
  // Attachments of a reply to the requester (issue 25, docs/email.md "Limits").
  attachmentCount: 'Attach at most 5 files to one reply.',
  /** The requester page's answer (issue 25): images only, as many as a reply's files. */
  imageCount: 'Attach at most 5 images to one message.',
  requesterForm: 'The form could not be read. Choose your images in the Images field and send again.',
  attachmentType: 'Attachments must be PNG, JPEG, GIF or WebP images, or PDF files.',
  attachmentSize: 'Each attachment must be 5 MB or smaller.',
  attachmentName: 'File names must be 1 to 200 characters, without control characters, slashes or backslashes.',
} as const;

/** Too many sign-in attempts, or bad API tokens, from one address (services/authLimiter.ts). */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many attempts. Try again in ${retryAfterSeconds} seconds.`;
}

/** Page sizes of every paginated list (GraphQL `first`): the default, and the most one request may ask for. */
export const PAGE_SIZE = { min: 1, default: 50, max: 100 } as const;

export const TICKET_TYPES = ['Question', 'Incident', 'Problem', 'Task'] as const;
export const TICKET_PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;
export type TicketType = (typeof TICKET_TYPES)[number];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const DEFAULT_TICKET_TYPE: TicketType = 'Question';
export const DEFAULT_TICKET_PRIORITY: TicketPriority = 'Low';
/** OPEN: to do; PENDING: waiting on the requester; SOLVED: done. The dashboard shows unsolved ones by default. */
export const TICKET_STATUSES = ['OPEN', 'PENDING', 'SOLVED'] as const;

/** An agent's role (issue 27): ADMIN manages teams and roles and may read every ticket. */
export const ROLES = ['ADMIN', 'AGENT'] as const;
export type Role = (typeof ROLES)[number];
export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** C0 controls and DEL: never part of a name. */
const isControl = (c: string) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;

/** A team's name: trimmed, 1 to 50 characters. Returns the trimmed name or null. */
export function checkTeamName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim();
  return name.length >= LIMITS.teamName.min && [...name].length <= LIMITS.teamName.max && ![...name].some(isControl) ? name : null;
}
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const DEFAULT_TICKET_STATUS: TicketStatus = 'OPEN';
export function isTicketStatus(value: unknown): value is TicketStatus {
  return (TICKET_STATUSES as readonly unknown[]).includes(value);
}
/** The orders of the dashboard list; RELEVANCE applies to a search (without one it is NEWEST). */
export const TICKET_ORDERS = ['NEWEST', 'OLDEST', 'PRIORITY', 'UPDATED', 'RELEVANCE'] as const;
export type TicketOrder = (typeof TICKET_ORDERS)[number];
/** At most this many distinct words of a search are matched (the rest of a 200-character query adds only cost). */
export const MAX_SEARCH_WORDS = 16;

/**
 * The words of a search, as both databases' search and the web app's live filtering see them: runs of letters,
 * digits and combining marks, lower-cased, distinct, at most MAX_SEARCH_WORDS. Everything else (quotes, `*`,
 * `-`, parentheses, NUL, emoji, ...) only separates words, so no character can act as a search operator.
 */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const word = match[0].toLowerCase();
    // A run of combining marks alone is no word for either tokenizer.
    if (/[\p{L}\p{N}]/u.test(word) && !words.includes(word)) words.push(word);
    if (words.length === MAX_SEARCH_WORDS) break;
  }
  return words;
}

/** `123` or `#123`: a search for the ticket with that id (null otherwise). */
export function searchTicketId(text: string): number | null {
  const id = /^\s*#?\s*(\d{1,9})\s*$/.exec(text);
  return id && Number(id[1]) > 0 ? Number(id[1]) : null;
}

/** A search text the server accepts: a string of at most LIMITS.search.max code units. */
export function validateSearch(value: unknown): FieldErrors {
  return collect([
    ['search', value === undefined || value === null || (typeof value === 'string' && value.length <= LIMITS.search.max), MESSAGES.searchLength],
  ]);
}
/** Who may use a macro: its author, the members of its team, or every agent. */
export const MACRO_SHARINGS = ['PRIVATE', 'TEAM', 'EVERYONE'] as const;
export type MacroSharing = (typeof MACRO_SHARINGS)[number];
export function isMacroSharing(value: unknown): value is MacroSharing {
  return typeof value === 'string' && (MACRO_SHARINGS as readonly string[]).includes(value);
}

/** Macro 1 is the built-in, permanent "No Macro" option. */
export const NO_MACRO_ID = 1;
export const NO_MACRO_NAME = 'No Macro';

/** Field name -> list of messages; the shape both REST bodies and GraphQL extensions carry. */
export type FieldErrors = Record<string, string[]>;

/**
 * No text of this product may hold U+0000: PostgreSQL cannot store it in a text column, and SQLite stops
 * reading a statement at it; either way the request would end in a 500 (found by the fuzzing tests).
 */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

/** Length in user-perceived characters would be kinder, but the spec counts code units like the legacy client. */
function lengthBetween(value: unknown, min: number, max: number): boolean {
  return typeof value === 'string' && value.length >= min && value.length <= max && !hasNul(value);
}

/** The spec's email rule is "must contain @"; we also bound the length and refuse whitespace-only sides. */
export function isEmail(value: unknown): boolean {
  return typeof value === 'string' && value.length <= LIMITS.email.max && !hasNul(value) && /^[^\s@]+@[^\s@]+$/.test(value.trim());
}

type Check = [field: string, ok: boolean, message: string];

function collect(checks: Check[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, ok, message] of checks) {
    if (!ok) (errors[field] ??= []).push(message);
  }
  return errors;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

export interface SignupInput {
  email: unknown;
  username: unknown;
  password: unknown;
  confirmPassword?: unknown;
}
export function validateSignup(input: SignupInput): FieldErrors {
  const checks: Check[] = [
    ['email', isEmail(input.email), MESSAGES.email],
    [
      'username',
      lengthBetween(typeof input.username === 'string' ? input.username.trim() : input.username, LIMITS.username.min, LIMITS.username.max),
      MESSAGES.username,
    ],
    ['password', lengthBetween(input.password, LIMITS.password.min, LIMITS.password.max), MESSAGES.password],
  ];
  if (input.confirmPassword !== undefined) {
    checks.push(['confirmPassword', input.confirmPassword === input.password, MESSAGES.confirmPassword]);
  }
  return collect(checks);
}

export interface LoginInput {
  email: unknown;
  password: unknown;
}
export function validateLogin(input: LoginInput): FieldErrors {
  return collect([
    ['email', isEmail(input.email), MESSAGES.email],
    ['password', typeof input.password === 'string' && input.password.length > 0 && input.password.length <= 1024, MESSAGES.password],
  ]);
}

/** A ticket's own fields, under the one name each has in the domain, the GraphQL input and the web form. */
export interface TicketFields {
  title: unknown;
  requesterId: unknown;
  description: unknown;
  type?: unknown;
  priority?: unknown;
  status?: unknown;
}
export function validateTicket(input: TicketFields): FieldErrors {
  return collect([
    ['title', lengthBetween(input.title, LIMITS.ticketTitle.min, LIMITS.ticketTitle.max) && String(input.title).trim().length > 0, MESSAGES.ticketTitle],
    ['requesterId', input.requesterId !== undefined && input.requesterId !== null && input.requesterId !== '', MESSAGES.ticketRequester],
    ['description', lengthBetween(input.description, LIMITS.ticketDescription.min, LIMITS.ticketDescription.max), MESSAGES.ticketDescription],
    ['type', input.type === undefined || input.type === null || (TICKET_TYPES as readonly unknown[]).includes(input.type), MESSAGES.ticketType],
    [
      'priority',
      input.priority === undefined || input.priority === null || (TICKET_PRIORITIES as readonly unknown[]).includes(input.priority),
      MESSAGES.ticketPriority,
    ],
    ['status', input.status === undefined || input.status === null || isTicketStatus(input.status), MESSAGES.ticketStatus],
  ]);
}

export interface CustomerFields {
  name: unknown;
  email: unknown;
}
export function validateCustomer(input: CustomerFields): FieldErrors {
  return collect([
    ['name', lengthBetween(input.name, LIMITS.customerName.min, LIMITS.customerName.max), MESSAGES.customerName],
    ['email', isEmail(input.email), MESSAGES.email],
  ]);
}

export interface MacroFields {
  name: unknown;
  description: unknown;
}
export function validateMacro(input: MacroFields): FieldErrors {
  return collect([
    ['name', lengthBetween(input.name, LIMITS.macroName.min, LIMITS.macroName.max), MESSAGES.macroName],
    ['description', lengthBetween(input.description, LIMITS.macroDescription.min, LIMITS.macroDescription.max), MESSAGES.macroDescription],
  ]);
}

/**
 * The spec checks message length only on edit; the server checks it on send as well, since an empty or
 * 1 MB message is never what the agent meant.
 */
export function validateMessage(input: { message: unknown }): FieldErrors {
  return collect([
    ['message', lengthBetween(input.message, LIMITS.message.min, LIMITS.message.max) && String(input.message).trim().length > 0, MESSAGES.message],
  ]);
}

/** An internal note's body: 1 to 10,000 characters, not blank, no NUL; stored exactly as sent. */
export function validateTicketNote(input: { body: unknown }): FieldErrors {
  return collect([
    ['body', lengthBetween(input.body, LIMITS.ticketNote.min, LIMITS.ticketNote.max) && String(input.body).trim().length > 0, MESSAGES.ticketNote],
  ]);
}

/** A public reply to the requester, and what the requester sends back: the same bounds as a note. */
export function validateTicketReply(input: { body: unknown }): FieldErrors {
  return collect([
    ['body', lengthBetween(input.body, LIMITS.ticketNote.min, LIMITS.ticketNote.max) && String(input.body).trim().length > 0, MESSAGES.ticketReply],
  ]);
}

export function validateRequesterMessage(input: { body: unknown }): FieldErrors {
  return collect([
    ['body', lengthBetween(input.body, LIMITS.ticketNote.min, LIMITS.ticketNote.max) && String(input.body).trim().length > 0, MESSAGES.requesterMessage],
  ]);
}

/** An attachment's file name as given by the client: shown and mailed as is, so it must be a plain name. */
export function validAttachmentName(name: unknown): boolean {
  return (
    typeof name === 'string' &&
    name.trim().length > 0 &&
    name.length <= LIMITS.attachmentName.max &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f\u007f/\\]/.test(name)
  );
}

/** Both fields filled: the create/edit customer and macro forms enable their submit button only then. */
export function bothFilled(a: string, b: string): boolean {
  return a.trim().length > 0 && b.trim().length > 0;
}

/** API tokens (docs/integrators.md): a name to recognise the token by, scopes, and a lifetime in days. */
/** READ ⊂ WRITE ⊂ WEBHOOKS: each scope includes the ones before it (services/apiTokens.ts). */
export const API_SCOPES = ['READ', 'WRITE', 'WEBHOOKS'] as const;
export type ApiScopeName = (typeof API_SCOPES)[number];
export const API_TOKEN_LIMITS = { name: { min: 1, max: 50 }, expiresInDays: { min: 1, max: 366, default: 90 } } as const;
export const API_TOKEN_MESSAGES = {
  name: 'Name must be between 1 and 50 characters.',
  scopes: 'Choose at least one scope: READ, WRITE (which includes READ) or WEBHOOKS (which includes WRITE).',
  expiresInDays: 'Expiry must be a whole number of days from 1 to 366.',
  /** A token may not mint tokens, outlive its revocation or sign in and out (services/apiTokens.ts). */
  sessionOnly: 'API tokens cannot manage tokens or sign in and out: use the web app, signed in.',
  readScope: 'This API token has the READ scope only: mutations need a token with the WRITE scope.',
  /** One answer for unknown, malformed, expired and revoked tokens alike. */
  invalid: 'The API token is invalid, expired or revoked.',
} as const;

export interface ApiTokenFields {
  name: unknown;
  scopes: unknown;
  expiresInDays?: unknown;
}
export function validateApiToken(input: ApiTokenFields): FieldErrors {
  const days = input.expiresInDays;
  return collect([
    [
      'name',
      lengthBetween(typeof input.name === 'string' ? input.name.trim() : input.name, API_TOKEN_LIMITS.name.min, API_TOKEN_LIMITS.name.max),
      API_TOKEN_MESSAGES.name,
    ],
    [
      'scopes',
      Array.isArray(input.scopes) && input.scopes.length > 0 && input.scopes.every((s) => (API_SCOPES as readonly unknown[]).includes(s)),
      API_TOKEN_MESSAGES.scopes,
    ],
    [
      'expiresInDays',
      days === undefined ||
        days === null ||
        (Number.isInteger(days) && (days as number) >= API_TOKEN_LIMITS.expiresInDays.min && (days as number) <= API_TOKEN_LIMITS.expiresInDays.max),
      API_TOKEN_MESSAGES.expiresInDays,
    ],
  ]);
}

/** The page size of a list (`first`), refused outside these bounds; published in docs/integrators.md. */
export const PAGE_SIZE_MESSAGE = MESSAGES.pageSize;
// Webhooks (docs/webhooks.md): the event names, the limits and the messages, shared by the service and the web app.
export const WEBHOOK_EVENT_TYPES = [
  'TICKET_CREATED',
  'TICKET_UPDATED',
  'TICKET_DELETED',
  'TICKET_NOTE_ADDED',
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

/** Reports (issue 29): the longest range one report may cover, in days (two years, a leap day included). */
export const REPORT_LIMITS = { maxDays: 731 } as const;

export const REPORT_MESSAGES = {
  date: 'Dates must be written YYYY-MM-DD (for example 2026-03-29).',
  range: `The end date (exclusive) must be after the start date and at most ${REPORT_LIMITS.maxDays} days later.`,
  timeZone: 'Unknown time zone: use an IANA name such as Europe/Berlin or America/New_York.',
  bucket: 'Bucket must be DAY, WEEK or MONTH.',
  breakdown: 'Breakdown must be TEAM, ASSIGNEE, PRIORITY, TYPE or STATUS.',
  search: 'Reports cannot filter by search words: filter by status, priority, type, requester or assignment.',
} as const;

export const REPORT_BUCKETS = ['DAY', 'WEEK', 'MONTH'] as const;
export const REPORT_BREAKDOWNS = ['TEAM', 'ASSIGNEE', 'PRIORITY', 'TYPE', 'STATUS'] as const;

/** A local calendar date `YYYY-MM-DD` as days since 1970-01-01 (no time zone involved), or null when it is not a real date. */
export function localDateDays(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const [y, m, d] = value.split('-').map(Number);
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  if (y < 1970 || back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
  return ms / 86_400_000;
}

/** Whether the runtime knows this IANA time zone name (offsets such as +01:00 are not time zones). */
export function knownTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || !value || value.length > 64 || /^[+-]/.test(value) || hasNul(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The checks of a report's input shared by the service (services/reports/report.ts) and the web page. */
export function validateReportInput(input: { from: unknown; to: unknown; timeZone: unknown; bucket: unknown; breakdown?: unknown }): FieldErrors {
  const from = localDateDays(input.from);
  const to = localDateDays(input.to);
  return collect([
    ['from', from !== null, REPORT_MESSAGES.date],
    ['to', to !== null, REPORT_MESSAGES.date],
    ['to', from === null || to === null || (to > from && to - from <= REPORT_LIMITS.maxDays), REPORT_MESSAGES.range],
    ['timeZone', knownTimeZone(input.timeZone), REPORT_MESSAGES.timeZone],
    ['bucket', (REPORT_BUCKETS as readonly unknown[]).includes(input.bucket), REPORT_MESSAGES.bucket],
    ['breakdown', input.breakdown == null || (REPORT_BREAKDOWNS as readonly unknown[]).includes(input.breakdown), REPORT_MESSAGES.breakdown],
  ]);
}

/**
 * Views (issue 28): a saved filter plus a scope. MINE: the tickets assigned to the viewer; TEAM_UNASSIGNED: a team's
 * unassigned tickets; TEAM: a team's tickets; ALL: every ticket the viewer may read.
 */
export const VIEW_SCOPES = ['MINE', 'TEAM_UNASSIGNED', 'TEAM', 'ALL'] as const;
export type ViewScopeName = (typeof VIEW_SCOPES)[number];
export const VIEW_LIMITS = { name: { min: 1, max: 50 }, viewsPerAgent: 50 } as const;
export const VIEW_MESSAGES = {
  name: `View name must be ${VIEW_LIMITS.name.min} to ${VIEW_LIMITS.name.max} characters.`,
  scope: 'Scope must be one of MINE, TEAM_UNASSIGNED, TEAM, ALL.',
  teamRequired: 'Pick a team for a team view.',
  teamNotAllowed: 'Only TEAM and TEAM_UNASSIGNED views have a team.',
  teamNotMine: 'Pick one of your teams.',
  sharedScope: 'Only team views and ALL views can be shared.',
  sharedAll: 'Only an admin may share a view of ALL tickets.',
  shared: 'Shared must be true or false.',
  assignedToMe: 'A view filters by scope: use the MINE scope instead of assignedToMe.',
  builtIn: 'Default views cannot be changed or deleted: save a view of your own instead.',
  owner: 'Only its owner or an admin may change or delete a shared view.',
  limit: `You have ${VIEW_LIMITS.viewsPerAgent} views, the most one agent may keep: delete one first.`,
} as const;

export interface ViewFields {
  name: unknown;
  scope: unknown;
  teamId?: unknown;
  shared?: unknown;
}

export const isViewScope = (value: unknown): value is ViewScopeName => (VIEW_SCOPES as readonly unknown[]).includes(value);
export const isTeamViewScope = (value: unknown) => value === 'TEAM' || value === 'TEAM_UNASSIGNED';

/** A view's name: trimmed, 1 to 50 characters without control characters. Returns it, or null. */
export function checkViewName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim();
  return name.length >= VIEW_LIMITS.name.min && [...name].length <= VIEW_LIMITS.name.max && ![...name].some(isControl) ? name : null;
}

/** The checks of a view's input that need no database (the service adds the team's and the role's). */
export function validateView(input: ViewFields): FieldErrors {
  const teamScope = isTeamViewScope(input.scope);
  const hasTeam = input.teamId !== undefined && input.teamId !== null;
  const shared = input.shared === true;
  return collect([
    ['name', checkViewName(input.name) !== null, VIEW_MESSAGES.name],
    ['scope', isViewScope(input.scope), VIEW_MESSAGES.scope],
    ['teamId', !teamScope || hasTeam, VIEW_MESSAGES.teamRequired],
    ['teamId', !isViewScope(input.scope) || teamScope || !hasTeam, VIEW_MESSAGES.teamNotAllowed],
    ['shared', input.shared === undefined || input.shared === null || typeof input.shared === 'boolean', VIEW_MESSAGES.shared],
    ['shared', !shared || !isViewScope(input.scope) || input.scope !== 'MINE', VIEW_MESSAGES.sharedScope],
  ]);
}
