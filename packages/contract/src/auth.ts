import { z } from 'zod';
import { listEnvelopeSchema } from './objects.js';

/**
 * Sign-in and users (api.md, "Security and sign-in"): the roles, the user object, and the bodies of
 * /auth/ and /users/. The server validates with these schemas; the web client uses the same types.
 */

/** Each role can do everything the one before it can. */
export const ROLES = ['viewer', 'researcher', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Shortest password a user may be given. */
export const PASSWORD_MIN_LENGTH = 10;

export const roleSchema = z.enum(ROLES);

export const userSchema = z.object({
  id: z.number().int().min(1),
  username: z.string(),
  role: roleSchema,
});
export type User = z.infer<typeof userSchema>;

/** A user in the admin's list: also when it was created. */
export const userRowSchema = userSchema.extend({ created_time: z.string() });
export type UserRow = z.infer<typeof userRowSchema>;
export const userListSchema = listEnvelopeSchema(userRowSchema);

/** `GET /auth/me/`: `{"user": null, "auth": false}` when sign-in is off. */
export const meResponseSchema = z.object({ user: userSchema.nullable(), auth: z.boolean() });
export type MeResponse = z.infer<typeof meResponseSchema>;
export const loginResponseSchema = z.object({ user: userSchema });

const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(1000, 'at most 1000 characters');
/** Letters (any script), digits and . _ @ - ; at most 60. */
export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'required')
  .max(60, 'at most 60 characters')
  .regex(/^[\p{L}\p{N}._@-]+$/u, 'letters, digits and . _ @ - only');

export const loginBodySchema = z.object({ username: z.string().max(200), password: z.string().max(1000) });
export const createUserBodySchema = z.object({ username: usernameSchema, password, role: roleSchema });
export const updateUserBodySchema = z
  .object({ role: roleSchema.optional(), password: password.optional() })
  .refine((v) => v.role !== undefined || v.password !== undefined, {
    message: 'give role and/or password',
    path: ['non_field_errors'],
  });
