import type { User } from '@cassavascope/contract';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { UsersRepository, usernameKey } from '../users/users.repository.js';
import { LoginThrottle, throttleSubjects } from './login-throttle.js';
import { decoyHash, verifyPassword } from '../security/password.js';
import { newSessionToken, tokenHash } from './session-token.js';
import { SessionsRepository, type SessionUser } from './sessions.repository.js';

const badCredentials = () => new ApiError(401, 'bad_credentials', 'Wrong user name or password');

/** Signing in and out, and the user behind a session token (api.md, "Security and sign-in"). */
export class AuthService {
  private readonly users: UsersRepository;
  private readonly sessions: SessionsRepository;
  private readonly throttle: LoginThrottle;

  constructor(private readonly ctx: AppContext) {
    this.users = new UsersRepository(ctx.db.kysely);
    this.sessions = new SessionsRepository(ctx.db.kysely);
    this.throttle = new LoginThrottle(ctx.db.kysely);
    // Made now, so the first sign-in with an unknown name takes no longer than the others.
    if (ctx.config.auth.enabled) void decoyHash();
  }

  /**
   * Checks the password and opens a session. An unknown name gets exactly the answer (and the time) of a
   * wrong password. Throws 429 while the name or the address must wait (login-throttle.ts).
   */
  async login(
    username: string,
    password: string,
    address: string,
  ): Promise<{ token: string; user: User; maxAgeSeconds: number }> {
    const now = new Date();
    const subjects = throttleSubjects(usernameKey(username), address);
    await this.throttle.check(subjects, now);
    const user = await this.users.getByName(username);
    const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !ok) {
      await this.throttle.recordFailure(subjects, now);
      throw badCredentials();
    }
    await this.throttle.clear(subjects[0]!);
    const token = newSessionToken();
    await this.sessions.insert(tokenHash(token), user.id, new Date(now.getTime() + this.ctx.config.auth.sessionMs));
    // Expired sessions are of no use to anyone: each sign-in sweeps them.
    await this.sessions.deleteExpired(now);
    return {
      token,
      user: { id: user.id, username: user.username, role: user.role as User['role'] },
      maxAgeSeconds: this.ctx.config.auth.sessionMs / 1000,
    };
  }

  async logout(token: string | null): Promise<void> {
    if (token) await this.sessions.delete(tokenHash(token));
  }

  /** The user of a live session, or undefined (no such session, expired, or the user was removed). */
  async userOfToken(token: string): Promise<SessionUser | undefined> {
    return this.sessions.findUser(tokenHash(token), new Date());
  }
}
