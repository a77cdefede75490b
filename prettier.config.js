// Prettier is the one formatter (`npm run format` writes, `npm run format:check` is part of `npm run lint`).
// Options chosen to keep the code's existing look: single quotes, semicolons, trailing commas, and wide lines
// (the code was written to about 160 columns; comments stay at 120, Prettier does not rewrap them).
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  trailingComma: 'all',
  // GraphQL documents in graphql(`...`) stay as written: the codegen client preset keys its generated types by each
  // document's exact text, so reformatting them would need a codegen run to match.
  embeddedLanguageFormatting: 'off',
};
