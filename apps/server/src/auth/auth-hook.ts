import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { AuditRepository } from './audit.repository.js';
import { AuthService } from './auth.service.js';
import { auditEntryOf, isAuditedInDeletion } from '../http/deletion-audit.js';
import { accessFor, roleAllows } from '../security/role-policy.js';
import { sessionTokenOf } from './session-token.js';
import type { SessionUser } from './sessions.repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in user (null when sign-in is off or on a public route) */
    user: SessionUser | null;
  }
}

const notSignedIn = (reply: FastifyReply) => reply.status(401).send({ code: 'not_signed_in', detail: 'Sign in first' });
const forbidden = (reply: FastifyReply, detail: string) => reply.status(403).send({ code: 'forbidden', detail });

/**
 * The one place roles are enforced (role-policy.ts), for every route, before its body is read: with sign-in
 * on, a request needs a live session whose role the route's rule allows. Also records who deleted what.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);
  const auth = new AuthService(ctx);
  const audit = new AuditRepository(ctx.db.kysely);

  if (ctx.config.auth.enabled) {
    app.addHook('onRequest', async (req, reply) => {
      const access = accessFor(req.method, req.routeOptions.url, req.url.split('?')[0]!);
      if (access === 'public') return;
      if (access === undefined) return forbidden(reply, 'No access rule covers this route');
      const token = sessionTokenOf(req.headers.cookie);
      const user = token ? await auth.userOfToken(token) : undefined;
      if (!user) return notSignedIn(reply);
      req.user = user;
      if (!roleAllows(user.role, access))
        return forbidden(reply, `This needs the ${access} role; you are signed in as ${user.role}`);
    });
  }

  // Every deletion route (images, folders, tasks, users) writes its entry inside its own transaction
  // (deletion-audit.ts). This hook is the net for a DELETE route added without doing so: it records the entry once
  // the deletion succeeded, right after its commit.
  app.addHook('onResponse', async (req: FastifyRequest, reply) => {
    if (req.method !== 'DELETE' || reply.statusCode >= 300 || !req.routeOptions.url) return;
    if (isAuditedInDeletion(req)) return;
    try {
      await audit.record(auditEntryOf(req));
    } catch (err) {
      req.log.error({ err }, 'could not record a deletion in the audit log');
    }
  });
}
