import { WEBHOOK_EVENT_TYPES } from '@fulcrum/schema/validation';

/** The event types grouped by record, with readable labels, for the checkboxes and the list. */
export const EVENT_GROUPS = ['TICKET', 'CUSTOMER', 'MACRO', 'MESSAGE'].map((record) => ({
  record,
  label: `${record.charAt(0)}${record.slice(1).toLowerCase()}s`,
  events: WEBHOOK_EVENT_TYPES.filter((e) => e.startsWith(`${record}_`)),
}));

export function eventLabel(event: string): string {
  const [record, change] = event.split('_');
  return `${record.charAt(0)}${record.slice(1).toLowerCase()} ${change?.toLowerCase() ?? ''}`.trim();
}
