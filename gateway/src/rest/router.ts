import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import { AppError, auth, customers, macros, messages, rules, tickets, users, type ServiceContext, type ServiceDeps } from '@fulcrum/schema';
import { serviceContextFor } from '../http/serviceContext.js';
import { readsBody } from '../http/appErrors.js';
import type { ErrorLog } from '../logging.js';
import { apiErrorHandler } from './errors.js';
import { requireSameOrigin } from '../security/sameOrigin.js';
import { restCustomer, restImage, restMacro, restMessage, restTicket, restTicketError, restUser, stringifyTicketList, ticketInputOf } from './shapes.js';

/** The REST facade of SPEC section 7 / REST-CONTRACT.md: thin adapters over the same services as GraphQL. */
export function createRestRouter(deps: ServiceDeps, log: ErrorLog): Router {
  const api = Router({ strict: false });
  const ctx = (req: Request): ServiceContext => serviceContextFor(req, deps, 'rest');
  const body = (req: Request): Record<string, unknown> => {
    const parsed: unknown = req.body;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  };
  /** A macro in the contract's fields only: sharing is GraphQL's, so a REST body's `sharing` or `teamId` is ignored. */
  const macroFields = (req: Request) => {
    const { name, description } = body(req);
    return { name, description };
  };
  // Every error of a body parser is the body's (http/appErrors.ts bodyRefusal): 400 or 413, never a 500.
  const json = readsBody(express.json({ limit: '100kb', strict: true }));
  const image = readsBody(
    multer({ storage: multer.memoryStorage(), limits: { fileSize: rules.LIMITS.imageBytes, files: 1, fields: 5, parts: 10 } }).single('image'),
  );
  const methodNotAllowed: RequestHandler = (_req, res) => void res.status(405).json({ errors: { message: 'Method not allowed' } });
  const signedIn: RequestHandler = (req, _res, next) => next(req.session?.userId ? undefined : AppError.unauthenticated());
  /** A ticket write from a body in the wire's names; its field errors come back in them too. */
  const ticketWrite = <T>(run: Promise<T>) =>
    run.catch((error: unknown) => {
      throw restTicketError(error);
    });
  type Handler = (req: Request, res: Response, next: NextFunction) => unknown;
  const route = (path: string, method: 'get' | 'post' | 'put', ...handlers: Handler[]) => {
    const routed = api.route(path);
    return routed[method](...(handlers as RequestHandler[])).all(methodNotAllowed);
  };
  /** The legacy client deletes with GET: refused cross-site, answered with the contract's message. */
  const deleteRoute = (path: string, remove: (ctx: ServiceContext, id: string) => Promise<unknown>, message: string) =>
    route(path, 'get', requireSameOrigin, async (req, res) => {
      await remove(ctx(req), String(req.params.id));
      res.json({ message });
    });

  // Auth (public)
  route('/auth', 'get', async (req, res) => res.json(restUser(await users.currentUser(ctx(req)))));
  route('/auth/login', 'post', json, async (req, res) => res.json(restUser(await auth.login(ctx(req), body(req) as unknown as auth.LoginArgs))));
  route('/auth/signup', 'post', json, async (req, res) => res.json(restUser(await auth.signup(ctx(req), body(req) as unknown as auth.SignupArgs))));
  route('/auth/logout', 'get', requireSameOrigin, async (req, res) => {
    await auth.logout(ctx(req));
    res.json({ message: 'User logged out' });
  });

  // Everything below needs a session.
  api.use(signedIn);
  route('/users', 'get', async (req, res) => res.json((await users.listUsers(ctx(req))).map(restUser)));

  // res.json's headers (Content-Type: application/json; charset=utf-8), with the body from the compiled serialiser.
  route('/tickets', 'get', async (req, res) => res.type('json').send(stringifyTicketList((await tickets.listAllTickets(ctx(req))).map(restTicket))));
  route('/tickets/create', 'post', json, async (req, res) => {
    // The legacy flow: the ticket first, its image with a second call (add-image).
    res.status(201).json(restTicket(await ticketWrite(tickets.createTicket(ctx(req), ticketInputOf(body(req))))));
  });
  route('/tickets/:id', 'get', async (req, res) => res.json(restTicket(await tickets.getTicket(ctx(req), req.params.id))));
  route('/tickets/:id/add-image', 'post', image, async (req, res) =>
    res.status(201).json(restImage(await tickets.setTicketImage(ctx(req), req.params.id, req.file?.buffer))),
  );
  route('/tickets/:id/edit', 'put', json, async (req, res) =>
    res.json(restTicket(await ticketWrite(tickets.updateTicket(ctx(req), req.params.id, ticketInputOf(body(req)))))),
  );
  route('/tickets/:id/edit-image', 'put', image, async (req, res) =>
    res.status(201).json(restImage(await tickets.setTicketImage(ctx(req), req.params.id, req.file?.buffer))),
  );
  deleteRoute('/tickets/:id/delete', tickets.deleteTicket, 'Ticket deleted successfully');

  route('/customers', 'get', async (req, res) => res.json((await customers.listCustomers(ctx(req))).map(restCustomer)));
  route('/customers/create', 'post', json, async (req, res) =>
    res.status(201).json(restCustomer(await customers.createCustomer(ctx(req), body(req) as { name: unknown; email: unknown }))),
  );
  route('/customers/validate/:email/:name', 'get', async (req, res) => {
    const available = await customers.isCustomerEmailAvailable(ctx(req), req.params.email, req.params.name);
    if (available) res.json({ message: 'ok' });
    else res.status(409).json({ errors: { unique: [rules.MESSAGES.customerUnique] } });
  });
  route('/customers/edit/:id', 'put', json, async (req, res) =>
    res.json(restCustomer(await customers.updateCustomer(ctx(req), req.params.id, body(req) as { name: unknown; email: unknown }))),
  );
  route('/customers/:id', 'get', async (req, res) => res.json(restCustomer(await customers.getCustomer(ctx(req), req.params.id))));
  deleteRoute('/customers/:id/delete', customers.deleteCustomer, 'Customer deleted successfully');

  route('/macro', 'get', async (req, res) => res.json((await macros.listMacros(ctx(req))).map(restMacro)));
  route('/macro/create', 'post', json, async (req, res) => res.status(201).json(restMacro(await macros.createMacro(ctx(req), macroFields(req)))));
  route('/macro/edit/:id', 'put', json, async (req, res) => res.json(restMacro(await macros.updateMacro(ctx(req), req.params.id, macroFields(req)))));
  route('/macro/:id', 'get', async (req, res) => res.json(restMacro(await macros.getMacro(ctx(req), req.params.id))));
  deleteRoute('/macro/:id/delete', macros.deleteMacro, 'Macro deleted successfully');

  route('/messages', 'get', async (req, res) => res.json((await messages.listMessages(ctx(req))).map(restMessage)));
  route('/messages/create/too/:receiverId', 'post', json, async (req, res) =>
    res.status(201).json(restMessage(await messages.sendMessage(ctx(req), req.params.receiverId, body(req).message))),
  );
  route('/messages/edit/:id', 'put', json, async (req, res) => res.json(restMessage(await messages.editMessage(ctx(req), req.params.id, body(req).message))));
  deleteRoute('/messages/:id/delete', messages.deleteMessage, 'Message successfully deleted');

  api.use((_req, res) => void res.status(404).json({ errors: { message: 'Not found' } }));
  api.use(apiErrorHandler(log));
  return api;
}
