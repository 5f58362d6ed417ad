import type { FastifyRequest } from 'fastify';

/** One `audit_log` entry: who deleted what. */
export interface AuditEntry {
  userId: number | null;
  username: string | null;
  /** e.g. `DELETE /api/folders/:id/` */
  action: string;
  /** the route's path and query parameters as JSON, e.g. `{"id":"12","images":"delete"}` */
  target: string;
}

/** Requests whose service writes their entry inside the deletion's own transaction. */
const recordedByTheirDeletion = new WeakSet<FastifyRequest>();

/** The audit entry of a DELETE request: the signed-in user (null with sign-in off), the route, its parameters. */
export function auditEntryOf(req: FastifyRequest): AuditEntry {
  return {
    userId: req.user?.id ?? null,
    username: req.user?.username ?? null,
    action: `DELETE ${req.routeOptions.url}`,
    target: JSON.stringify(req.sentParams ?? { ...(req.params as object), ...(req.query as object) }),
  };
}

/**
 * The entry for a route that hands it to its service, which writes it in the same transaction as the deletion
 * (issue 14: both commit or neither does, so a crash cannot keep the one without the other). Marks the request
 * so the after-response hook (auth-hook.ts, for deletions that do not do this yet) does not write it again.
 */
export function auditInDeletion(req: FastifyRequest): AuditEntry {
  recordedByTheirDeletion.add(req);
  return auditEntryOf(req);
}

/** True when the request's deletion wrote its own audit entry (it called `auditInDeletion`). */
export function isAuditedInDeletion(req: FastifyRequest): boolean {
  return recordedByTheirDeletion.has(req);
}
