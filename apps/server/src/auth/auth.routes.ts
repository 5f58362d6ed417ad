import { loginBodySchema, loginResponseSchema, meResponseSchema } from '@cassavascope/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { parseInput } from '../http/validation.js';
import { doc, errorResponse } from '../openapi/route-doc.js';
import { AuthService } from './auth.service.js';
import { sessionCookie, sessionTokenOf } from './session-token.js';

/** Secure cookies only over HTTPS (X-Forwarded-Proto counts only with TRUST_PROXY: Fastify's trustProxy). */
const isHttps = (req: FastifyRequest) => req.protocol === 'https';

/** `/auth/`: sign in, sign out, who am I (api.md, "Security and sign-in"). */
export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const auth = new AuthService(ctx);

  const loginDoc = doc({
    tag: 'auth',
    summary: 'Sign in: opens a session (an HttpOnly, SameSite=Lax cookie)',
    body: loginBodySchema,
    responses: {
      200: loginResponseSchema,
      401: errorResponse('`bad_credentials`: wrong user name or password (the same for an unknown user)'),
      429: errorResponse(
        '`too_many_attempts`: repeated failures for this name or address; `retry_after` seconds (also the Retry-After header)',
      ),
    },
  });
  app.post('/auth/login/', loginDoc, async (req, reply) => {
    const body = parseInput(loginBodySchema, req.body, 'sign-in');
    try {
      const { token, user, maxAgeSeconds } = await auth.login(body.username, body.password, req.ip);
      // Signing in again (as someone else, say) ends the session this browser had.
      await auth.logout(sessionTokenOf(req.headers.cookie));
      reply.header('Set-Cookie', sessionCookie(token, maxAgeSeconds, isHttps(req)));
      return { user };
    } catch (err) {
      if (err instanceof ApiError && err.code === 'too_many_attempts')
        reply.header('Retry-After', String(err.extra.retry_after));
      throw err;
    }
  });

  app.post(
    '/auth/logout/',
    doc({ tag: 'auth', summary: 'Sign out: ends this session', responses: { 204: null } }),
    async (req, reply) => {
      await auth.logout(sessionTokenOf(req.headers.cookie));
      return reply
        .header('Set-Cookie', sessionCookie('', 0, isHttps(req)))
        .status(204)
        .send();
    },
  );

  app.get(
    '/auth/me/',
    doc({
      tag: 'auth',
      summary: 'The signed-in user; `{"user": null, "auth": false}` when sign-in is off',
      responses: { 200: meResponseSchema },
    }),
    async (req) => {
      if (!ctx.config.auth.enabled) return { user: null, auth: false };
      const user = req.user;
      return { user: user && { id: user.id, username: user.username, role: user.role }, auth: true };
    },
  );
}
