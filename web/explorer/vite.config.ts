import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/**
 * The GraphQL explorer (GraphiQL), a build of its own: served by the gateway at /graphiql, it never enters the
 * agents' app bundle. Everything it needs (scripts, styles, fonts) is bundled here; nothing loads from a CDN.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/graphiql/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/graphiql', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // GraphiQL is one large bundle by nature; it is loaded only by the explorer page.
    chunkSizeWarningLimit: 3000,
  },
});
