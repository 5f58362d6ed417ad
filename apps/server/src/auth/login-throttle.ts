import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { LoginFailuresRepository } from './login-failures.repository.js';

/**
 * Slows down password guessing (api.md: "repeated failures are slowed down"), per user name and per client
 * address. Failures are rows in the database, so every API process counts the same ones. The first
 * failures within WINDOW_MS cost nothing (5 per name; 20 per address, since a lab behind one NAT address
 * shares it); after that each attempt must wait a delay that
 * doubles with every further failure (2 s, 4 s, ... at most MAX_DELAY_MS) after the latest one, or gets
 * 429 `too_many_attempts` with Retry-After. A success clears the user name's failures. The name is counted
 * whether or not it exists, so the answer does not tell which names exist.
 */
const FREE_FAILURES = { user: 5, addr: 20 };
const WINDOW_MS = 15 * 60_000;
const BASE_DELAY_MS = 2_000;
const MAX_DELAY_MS = 5 * 60_000;

export function throttleSubjects(usernameKey: string, address: string): string[] {
  return [`user:${usernameKey}`, `addr:${address}`];
}

/** The rule above, over the failures kept by LoginFailuresRepository. */
export class LoginThrottle {
  private readonly failures: LoginFailuresRepository;

  constructor(db: Kysely<Database>) {
    this.failures = new LoginFailuresRepository(db);
  }

  /** Throws 429 when one of the subjects must still wait. */
  async check(subjects: string[], now: Date): Promise<void> {
    const since = new Date(now.getTime() - WINDOW_MS).toISOString();
    let waitMs = 0;
    for (const subject of subjects) {
      const { count, latest } = await this.failures.since(subject, since);
      const free = subject.startsWith('user:') ? FREE_FAILURES.user : FREE_FAILURES.addr;
      if (count < free || !latest) continue;
      const delay = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (count - free));
      waitMs = Math.max(waitMs, new Date(latest).getTime() + delay - now.getTime());
    }
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new ApiError(429, 'too_many_attempts', `Too many failed sign-ins: try again in ${seconds} s`, {
        retry_after: seconds,
      });
    }
  }

  async recordFailure(subjects: string[], now: Date): Promise<void> {
    await this.failures.insert(subjects, now.toISOString());
    // Old rows are of no use: keep the table small.
    await this.failures.deleteOlderThan(new Date(now.getTime() - WINDOW_MS).toISOString());
  }

  async clear(subject: string): Promise<void> {
    await this.failures.deleteOf(subject);
  }
}
