/**
 * The one normalisation of a file name before it is stored (mail attachments, agents' reply attachments, the
 * requester page's images): every path that writes a `reply_attachments.filename` calls `storedFileName`.
 *
 * Unicode format characters (category Cf: the bidi overrides and isolates U+202A–U+202E and U+2066–U+2069, U+200B
 * and the other zero-width characters, U+FEFF...) change how a name is shown without showing themselves:
 * `invoice\u202Efdp.exe` reads "invoiceexe.pdf". They, and control characters (category Cc), are removed; the rest of
 * the name is kept as given (NFC, so one name has one spelling).
 */

/** Category Cf and Cc code points. */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;

/** A file name with its format and control characters removed, NFC-normalised. May be empty (the caller decides). */
export function storedFileName(name: string): string {
  return name.normalize('NFC').replace(INVISIBLE, '');
}
