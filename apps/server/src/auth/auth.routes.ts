import { loginBodySchema, loginResponseSchema, meResponseSchema } from '@cassavascope/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { named } from '../http/validation.js';
import { errorResponse, noBody } from '../openapi/route-doc.js';
import { AuthService } from './auth.service.js';
import { sessionCookie, sessionTokenOf } from './session-token.js';

/** Secure cookies only over HTTPS (X-Forwarded-Proto counts only with TRUST_PROXY: Fastify's trustProxy). */
const isHttps = (req: FastifyRequest) => req.protocol === 'https';

const loginBody = named('sign-in', loginBodySchema);

/** `/auth/`: sign in, sign out, who am I (api.md, "Security and sign-in"). */
export async function authRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const auth = new AuthService(ctx);

  const loginSchema = {
    tags: ['auth'],
    summary: 'Sign in: opens a session (an HttpOnly, SameSite=Lax cookie)',
    body: loginBody,
    response: {
      200: loginResponseSchema,
      401: errorResponse('`bad_credentials`: wrong user name or password (the same for an unknown user)'),
      429: errorResponse(
        '`too_many_attempts`: repeated failures for this name or address; `retry_after` seconds (also the Retry-After header)',
      ),
    },
  };
  app.post('/auth/login/', { schema: loginSchema }, async (req, reply) => {
    const body = req.body;
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
    { schema: { tags: ['auth'], summary: 'Sign out: ends this session', response: { 204: noBody } } },
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
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user; `{"user": null, "auth": false}` when sign-in is off',
        response: { 200: meResponseSchema },
      },
    },
    async (req) => {
      if (!ctx.config.auth.enabled) return { user: null, auth: false };
      const user = req.user;
      return { user: user && { id: user.id, username: user.username, role: user.role }, auth: true };
    },
  );
}
