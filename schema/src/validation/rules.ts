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
  /** Longest email we store; not in the spec, but an unbounded column is an invitation. */
  email: { max: 255 },
  /** Upload size limit for ticket images. */
  imageBytes: 5 * 1024 * 1024,
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
  macroPermanent: 'This Option Is Permanent',
  customerHint: 'Please provide name and email.',
  macroHint: 'Please provide name and description.',
  serverError: 'Something went wrong. Please try again',
  // Server-side messages the REST contract names (not in SPEC section 5).
  loginFailed: 'Email or password is incorrect.',
  emailInUse: 'Email address is already in use.',
  usernameInUse: 'Username is already in use.',
  imageType: 'Image must be a PNG, JPEG, GIF or WebP file.',
  imageSize: 'Image must be 5 MB or smaller.',
  imageDimensions: 'Image must be at most 8000 x 8000 pixels.',
  required: 'This field is required.',
  ticketType: 'Type must be one of Question, Incident, Problem, Task.',
  ticketPriority: 'Priority must be one of Low, Medium, High, Urgent.',
  ticketMacro: 'Macro not found.',
  ticketRequesterUnknown: 'Requester not found.',
} as const;

export const TICKET_TYPES = ['Question', 'Incident', 'Problem', 'Task'] as const;
export const TICKET_PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;
export type TicketType = (typeof TICKET_TYPES)[number];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const DEFAULT_TICKET_TYPE: TicketType = 'Question';
export const DEFAULT_TICKET_PRIORITY: TicketPriority = 'Low';
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

export interface SignupInput { email: unknown; username: unknown; password: unknown; confirmPassword?: unknown }
export function validateSignup(input: SignupInput): FieldErrors {
  const checks: Check[] = [
    ['email', isEmail(input.email), MESSAGES.email],
    ['username', lengthBetween(typeof input.username === 'string' ? input.username.trim() : input.username, LIMITS.username.min, LIMITS.username.max), MESSAGES.username],
    ['password', lengthBetween(input.password, LIMITS.password.min, LIMITS.password.max), MESSAGES.password],
  ];
  if (input.confirmPassword !== undefined) {
    checks.push(['confirmPassword', input.confirmPassword === input.password, MESSAGES.confirmPassword]);
  }
  return collect(checks);
}

export interface LoginInput { email: unknown; password: unknown }
export function validateLogin(input: LoginInput): FieldErrors {
  return collect([
    ['email', isEmail(input.email), MESSAGES.email],
    ['password', typeof input.password === 'string' && input.password.length > 0 && input.password.length <= 1024, MESSAGES.password],
  ]);
}

export interface TicketFields { title: unknown; requester: unknown; description: unknown; type?: unknown; priority?: unknown }
export function validateTicket(input: TicketFields): FieldErrors {
  return collect([
    ['title', lengthBetween(input.title, LIMITS.ticketTitle.min, LIMITS.ticketTitle.max) && String(input.title).trim().length > 0, MESSAGES.ticketTitle],
    ['requester', input.requester !== undefined && input.requester !== null && input.requester !== '', MESSAGES.ticketRequester],
    ['description', lengthBetween(input.description, LIMITS.ticketDescription.min, LIMITS.ticketDescription.max), MESSAGES.ticketDescription],
    ['type', input.type === undefined || input.type === null || (TICKET_TYPES as readonly unknown[]).includes(input.type), MESSAGES.ticketType],
    ['priority', input.priority === undefined || input.priority === null || (TICKET_PRIORITIES as readonly unknown[]).includes(input.priority), MESSAGES.ticketPriority],
  ]);
}

export interface CustomerFields { name: unknown; email: unknown }
export function validateCustomer(input: CustomerFields): FieldErrors {
  return collect([
    ['name', lengthBetween(input.name, LIMITS.customerName.min, LIMITS.customerName.max), MESSAGES.customerName],
    ['email', isEmail(input.email), MESSAGES.email],
  ]);
}

export interface MacroFields { name: unknown; description: unknown }
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
  return collect([['message', lengthBetween(input.message, LIMITS.message.min, LIMITS.message.max) && String(input.message).trim().length > 0, MESSAGES.message]]);
}

/** Both fields filled: the create/edit customer and macro forms enable their submit button only then. */
export function bothFilled(a: string, b: string): boolean {
  return a.trim().length > 0 && b.trim().length > 0;
}

// Webhooks (docs/webhooks.md): the event names, the limits and the messages, shared by the service and the web app.
export const WEBHOOK_EVENT_TYPES = [
  'TICKET_CREATED', 'TICKET_UPDATED', 'TICKET_DELETED',
  'CUSTOMER_CREATED', 'CUSTOMER_UPDATED', 'CUSTOMER_DELETED',
  'MACRO_CREATED', 'MACRO_UPDATED', 'MACRO_DELETED',
  'MESSAGE_CREATED', 'MESSAGE_UPDATED', 'MESSAGE_DELETED',
] as const;
export type WebhookEventTypeName = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_LIMITS = { urlLength: 2048, webhooksPerAgent: 20 } as const;
export const WEBHOOK_MESSAGES = {
  url: `URL must be an absolute https:// address of at most ${WEBHOOK_LIMITS.urlLength} characters.`,
  events: 'Choose at least one event.',
  eventUnknown: 'Unknown event type.',
  tooMany: `An agent may register at most ${WEBHOOK_LIMITS.webhooksPerAgent} webhooks; delete one first.`,
} as const;
