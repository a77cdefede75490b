/**
 * Loaded with `--import` before main.ts in the fault test only (never in production): on SIGUSR2 it raises the
 * process-level faults a bug could cause outside any request, an unhandled promise rejection, an exception thrown
 * from a timer, and an 'error' event nobody listens to, so the test can prove main.ts's handlers keep serving.
 */
import { EventEmitter } from 'node:events';

process.on('SIGUSR2', () => {
  void Promise.reject(new Error('injected: unhandled rejection'));
  setTimeout(() => {
    throw new Error('injected: uncaught exception from a timer');
  }, 0);
  setTimeout(() => new EventEmitter().emit('error', new Error('injected: unheard error event')), 0);
  setTimeout(() => console.log('[fault-injector] injected 3 process faults'), 10);
});
