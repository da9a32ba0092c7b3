import type { FastifyRequest } from 'fastify';
import { apiError } from './errors.js';

/** Items of one page when the request names no limit, and the most one page may hold. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

function whole(value: unknown, name: string, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) > max) {
    throw apiError('invalid_request', `${name} must be a whole number from 0 to ${max}`);
  }
  return Number(value);
}

/** `?limit=&offset=` of a list request, bounded. */
export function pageOf(req: FastifyRequest): { limit: number; offset: number } {
  const query = req.query as Record<string, unknown>;
  return {
    limit: Math.max(1, whole(query.limit, 'limit', MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE)),
    offset: whole(query.offset, 'offset', 1_000_000_000, 0),
  };
}
