import type { AppContext } from '../context.js';
import { isUniqueViolation } from '../db/errors.js';
import { UsersRepository } from '../users/users.repository.js';
import { hashPassword } from '../security/password.js';

/**
 * At start: the first admin from ADMIN_USERNAME / ADMIN_PASSWORD when there is no user yet (two API
 * processes starting together: the unique name lets one of them win). With sign-in on and no user at all,
 * says how to make one.
 */
export async function ensureFirstAdmin(ctx: AppContext): Promise<void> {
  const users = new UsersRepository(ctx.db.kysely);
  if ((await users.count()) > 0) return;
  const first = ctx.config.auth.firstAdmin;
  if (first) {
    try {
      await users.insert(first.username, 'admin', await hashPassword(first.password));
      ctx.log.info({ username: first.username }, 'created the first admin from ADMIN_USERNAME');
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    return;
  }
  if (ctx.config.auth.enabled) {
    ctx.log.warn(
      'sign-in is on but there is no user yet: set ADMIN_USERNAME and ADMIN_PASSWORD, or run `npm run users -- add NAME --role admin`',
    );
  }
}
