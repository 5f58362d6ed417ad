import type { Role, UserRow } from '@cassavascope/contract';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { ApiError, notFound } from '../http/errors.js';
import type { Paging } from '../http/paging.js';
import { AuditRepository } from '../auth/audit.repository.js';
import type { AuditEntry } from '../http/deletion-audit.js';
import { hashPassword } from '../security/password.js';
import { SessionsRepository } from '../auth/sessions.repository.js';
import { UsersRepository, type UserRecord } from './users.repository.js';

const lastAdmin = () =>
  new ApiError(409, 'last_admin', 'The last admin cannot be removed or demoted: make another user admin first');
const nameTaken = (name: string) =>
  new ApiError(409, 'username_exists', `A user named "${name}" already exists`, {
    fields: { username: 'already exists' },
  });

export function toUserRow(u: UserRecord): UserRow {
  return { id: u.id, username: u.username, role: u.role as Role, created_time: u.created_at };
}

/** Managing users (admin only, api.md): the last admin always stays. */
export class UsersService {
  private readonly users: UsersRepository;
  private readonly sessions: SessionsRepository;
  private readonly audit: AuditRepository;

  /** Takes the database only: the `users` command line uses it too. */
  constructor(private readonly db: Db) {
    this.users = new UsersRepository(db.kysely);
    this.sessions = new SessionsRepository(db.kysely);
    this.audit = new AuditRepository(db.kysely);
  }

  async list(paging: Paging): Promise<{ count: number; results: UserRow[] }> {
    const [count, rows] = await Promise.all([this.users.count(), this.users.listPage(paging.pageSize, paging.offset)]);
    return { count, results: rows.map(toUserRow) };
  }

  async create(input: { username: string; password: string; role: Role }): Promise<UserRow> {
    const hash = await hashPassword(input.password);
    try {
      const id = await this.users.insert(input.username, input.role, hash);
      return toUserRow((await this.users.getById(id))!);
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(input.username);
      throw err;
    }
  }

  /**
   * A new role and/or password. A new password ends the user's sessions (someone who knew the old one is
   * out), except the one making the change when users change their own.
   */
  async update(
    id: number,
    changes: { role?: Role | undefined; password?: string | undefined },
    actingUserId: number | null,
  ): Promise<UserRow> {
    const hash = changes.password === undefined ? undefined : await hashPassword(changes.password);
    await this.db.kysely.transaction().execute(async (trx) => {
      const user = await this.users.getById(id, trx);
      if (!user) throw notFound('User');
      if (user.role === 'admin' && changes.role !== undefined && changes.role !== 'admin')
        await this.keepAnAdmin(trx, id);
      await this.users.update(
        id,
        { ...(changes.role ? { role: changes.role } : {}), ...(hash ? { password_hash: hash } : {}) },
        trx,
      );
      if (hash && actingUserId !== id) await this.sessions.deleteOfUser(id, trx);
    });
    return toUserRow((await this.users.getById(id))!);
  }

  /** Removes a user and their sessions; what they did stays recorded under their id. */
  /** Looks a user up by name (the command line names users). */
  async byName(name: string): Promise<UserRow | undefined> {
    const u = await this.users.getByName(name);
    return u && toUserRow(u);
  }

  /** Deletes a user and ends their sessions, with the deletion's audit entry, in one transaction. */
  async delete(id: number, audit: AuditEntry): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const user = await this.users.getById(id, trx);
      if (!user) throw notFound('User');
      await this.audit.record(audit, trx);
      if (user.role === 'admin') await this.keepAnAdmin(trx, id);
      await this.sessions.deleteOfUser(id, trx);
      await this.users.delete(id, trx);
    });
  }

  /** 409 when `id` is the only admin (admins are locked first, so concurrent changes cannot both pass). */
  private async keepAnAdmin(trx: Parameters<UsersRepository['lockAdmins']>[0], id: number): Promise<void> {
    const admins = await this.users.lockAdmins(trx, this.db.dialect === 'postgres');
    if (admins.filter((a) => a !== id).length === 0) throw lastAdmin();
  }
}
