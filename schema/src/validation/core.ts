/**
 * The core of the validation rules: every rule and message of SPEC.md section 5 (and the limits of section 9), defined
 * once, and the field checks the feature rules beside it build on (apiTokens.ts, webhooks.ts, reports.ts, views.ts).
 * Decorator-free and dependency-free on purpose: the gateway's services and the web app's forms both import them,
 * through rules.ts.
 */
import { collect, hasNul, isControl, lengthBetween, type Check, type FieldErrors } from './checks.js';

export { hasNul, type FieldErrors } from './checks.js';

export const LIMITS = {
  password: { min: 6, max: 20 },
  username: { min: 3, max: 30 },
  ticketTitle: { min: 1, max: 40 },
  ticketDescription: { min: 3, max: 2000 },
  customerName: { min: 2, max: 50 },
  macroName: { min: 2, max: 50 },
  macroDescription: { min: 1, max: 2000 },
  message: { min: 1, max: 2000 },
  /** An internal note on a ticket. */
  ticketNote: { min: 1, max: 10_000 },
  /** Longest email we store; not in the spec, but an unbounded column is an invitation. */
  email: { max: 255 },
  /** Upload size limit for ticket images. */
  imageBytes: 5 * 1024 * 1024,
  /** Pixels (width x height) of a ticket image: what it costs to decode (8000 x 8000 would be 192 MB as RGB). */
  imagePixels: 50_000_000,
  /** Files attached to one reply to the requester: how many, and each one's size (the image limit). */
  replyAttachments: { max: 5 },
  /** An attachment's file name, in characters (no path, no control characters). */
  attachmentName: { max: 200 },
  /** The dashboard search box: longer input is refused with MESSAGES.searchLength (no engine sees it). */
  search: { max: 200 },
  /** A team's name, after trimming. */
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
  // Says only that tickets name the customer: how many would count other agents' tickets too.
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
  // Teams and assignment.
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
  // The message center's read state, presence and typing.
  invalidUserId: 'Invalid user id.',
  invalidMessageId: 'Invalid message id.',
  conversationWithSelf: 'Pick another agent: you have no conversation with yourself.',
  messageToSelf: 'You cannot send a message to yourself.',
  /** Truncated or damaged files, and files with something else hidden after the image (polyglots). */
  imageDamaged: 'Image file is damaged, incomplete, or has other content attached.',
  // Attachments of a reply to the requester (docs/email.md "Limits").
  attachmentCount: 'Attach at most 5 files to one reply.',
  /** The requester page's answer: images only, as many as a reply's files. */
  imageCount: 'Attach at most 5 images to one message.',
  requesterForm: 'The form could not be read. Choose your images in the Images field and send again.',
  /** The requester page: the ticket's requester messages hold as many bytes of files as one ticket takes. */
  requesterTicketFull: 'Your message was not sent: this request already holds as many images as it can take. Send your message again without images.',
  attachmentType: 'Attachments must be PNG, JPEG, GIF or WebP images, or PDF files.',
  attachmentSize: 'Each attachment must be 5 MB or smaller.',
  attachmentName: 'File names must be 1 to 200 characters, without control characters, slashes or backslashes.',
  heldOpening: 'This ticket was opened by a mail held for review: accept that mail before replying to the requester.',
} as const;

/** Too many sign-in attempts, or bad API tokens, from one address (services/authLimiter.ts). */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many attempts. Try again in ${retryAfterSeconds} seconds.`;
}

/**
 * The requester page refused an answer: its hourly budgets of answers and files, per link and per address, are
 * spent (services/authLimiter.ts consumeRequesterAnswer). What happened, and when to try again.
 */
export function requesterAnswerLimitMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Your message was not sent: too many messages or images came through this page in the last hour. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
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

/** An agent's role: ADMIN manages teams and roles and may read every ticket. */
export const ROLES = ['ADMIN', 'AGENT'] as const;
export type Role = (typeof ROLES)[number];
export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

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

/**
 * The spec's email rule is "must contain @"; we also bound the length, refuse whitespace-only sides, and refuse the
 * characters that separate or quote addresses in a mail header (`< > , ; : " ( ) [ ] \` and control characters):
 * `x>,<y@example.com` is one address to this rule but two to a mail client, so mail would go to someone else.
 */
export function isEmail(value: unknown): boolean {
  return typeof value === 'string' && value.length <= LIMITS.email.max && !hasNul(value) && EMAIL_SHAPE.test(value.trim());
}

// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const EMAIL_SHAPE = /^[^\s@<>,;:"()[\]\\\u0000-\u001f\u007f]+@[^\s@<>,;:"()[\]\\\u0000-\u001f\u007f]+$/;

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
