import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';

const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:4000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Brotli and gzip copies of every script, style and SVG, written beside each file at build time; the gateway
  // (gateway/src/http/webApp.ts) sends the one the browser accepts. Files too small to gain are left alone.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: {
      '/graphql': { target: gateway, ws: true, changeOrigin: false },
      '/api': { target: gateway },
      '/images': { target: gateway },
    },
  },
});
