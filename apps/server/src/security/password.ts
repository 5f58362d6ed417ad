import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * scrypt (memory-hard, in Node's own crypto) with N = 2^15, r = 8, p = 1: 32 MiB and roughly 50-100 ms per
 * hash here, the OWASP minimum. The parameters are stored with each hash, so raising them later still
 * verifies the old ones.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const maxmemFor = (n: number, r: number) => 256 * n * r;

/** `scrypt$N$r$p$salt$hash` (base64 salt and hash): the only form a password is ever stored in. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N, r: R, p: P, maxmem: maxmemFor(N, R) });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** True when `password` matches `stored`; false for a wrong password or a malformed hash. Constant-time compare. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Number.isInteger(params.N) || !Number.isInteger(params.r) || !Number.isInteger(params.p)) return false;
  const key = await scrypt(password.normalize('NFC'), Buffer.from(salt, 'base64'), expected.length, {
    ...params,
    maxmem: maxmemFor(params.N, params.r),
  });
  return crypto.timingSafeEqual(key, expected);
}

/**
 * A hash no password matches, checked when the user name is unknown: the answer then takes as long as for a
 * known user with a wrong password, so timing does not tell which names exist.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(crypto.randomBytes(24).toString('base64'));
  return decoy;
}
