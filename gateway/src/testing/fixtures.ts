import { demoTicketImage } from '@fulcrum/schema';

/** A real PNG (drawn by the seed's generator). */
export const PNG = demoTicketImage(7, 40, 30);

/** A real 1x1 JPEG (baseline, white), ending with its EOI marker (a JPEG without one is truncated and refused). */
export const JPEG = Buffer.concat([
  Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
  Buffer.from([0xff, 0xd9]),
]);

/** HTML dressed up as a PNG by its name and declared type. */
export const HTML_AS_PNG = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

export const validTicket = (requester: number | string = 1) => ({
  title: 'Printer on fire',
  type: 'Incident',
  priority: 'High',
  requester,
  apply_macro: null,
  description: 'Smoke from tray 2.',
});
