// `npm start`: brings what is stale up to date (the web app, the gateway bundle), then runs the gateway in this
// very process (no second node start-up).
import { pathToFileURL } from 'node:url';
import { ensureGatewayBundle } from '../gateway/bundle.mjs';
import { ensureWebBuilt } from './ensureWebBuilt.mjs';

ensureWebBuilt();
await import(pathToFileURL(await ensureGatewayBundle()).href);
