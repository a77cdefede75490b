import unhomoglyph from 'unhomoglyph';

/**
 * Characters that show nothing: default-ignorable code points (zero-width space and joiners, soft hyphen,
 * variation selectors, word joiner...), bidi controls (LRM/RLM, embeddings, overrides, isolates), and other
 * format and control characters.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cf}\p{Cc}]/gu;

/** The UTS #39 skeleton: NFD, every character replaced by its prototype in Unicode's confusables.txt, NFD. */
const skeleton = (text: string) => unhomoglyph(text.normalize('NFD')).normalize('NFD');

/** Upper then lower case: every case variant of a name gives the same text (and `ß` becomes `ss`). */
const fold = (text: string) => text.toUpperCase().toLowerCase();

/**
 * The key under which usernames must be unique: names with the same key look alike, so a new name
 * whose key is taken is refused as taken. Steps:
 *
 * 1. NFKC (fullwidth `Ｄｅｍｏ`, ligatures and other compatibility forms become plain letters), and every
 *    invisible character removed;
 * 2. a capital whose skeleton is a Latin letter becomes that letter (Cyrillic `В`, `М`, Greek `Ν`: their small
 *    forms look like nothing Latin, so folding them first would hide the likeness);
 * 3. case-folded, then skeleton, then upper-cased and skeleton again (capitals have confusables of their own:
 *    `I` and `l`), then lower-cased. Folding first means every case variant of a name gets the same key.
 *
 * So `demo`, `DEMO`, `Dеmo` (Cyrillic е), `Demo` + zero-width space, `Ｄｅｍｏ` and `Dernо` share one key.
 * The skeleton step is unhomoglyph's (Unicode's confusables data); the rest is normalisation only.
 */
export function usernameKey(username: string): string {
  const visible = username.normalize('NFKC').replace(INVISIBLE, '');
  const latinCapitals = [...visible].map((c) => (c !== c.toLowerCase() && /^[A-Za-z]+$/.test(skeleton(c)) ? skeleton(c) : c)).join('');
  return skeleton(skeleton(fold(latinCapitals)).toUpperCase())
    .toLowerCase()
    .replace(INVISIBLE, '');
}
