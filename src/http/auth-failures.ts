/**
 * A per-IP limit on failed authentication: after `maxPerMinute` failures from one address in its
 * window, every further attempt from it is answered 429 RATE_LIMITED with Retry-After before any
 * credential is looked up, until the window ends. Guessing keys or secrets then costs the guesser
 * a minute per few dozen tries and costs the database nothing.
 *
 * Counted in this process's memory, like the other rate limits (README: "Rate limits"): each API
 * process keeps its own windows. At most MAX_TRACKED addresses are held; past that the oldest
 * window is forgotten first, so memory stays bounded whatever the number of addresses.
 */
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.ts';

const WINDOW_MS = 60_000;
const MAX_TRACKED = 100_000;

export interface AuthFailureLimiter {
  /** Throws 429 RATE_LIMITED (Retry-After set on the reply) while `ip` is over its limit. */
  refuseWhileBlocked(ip: string, reply: FastifyReply): void;
  /** Runs one authentication; an UNAUTHORIZED failure counts against `ip`. */
  counting<T>(ip: string, authenticate: () => T | Promise<T>): Promise<T>;
}

interface Window {
  failures: number;
  endsAt: number;
}

export function createAuthFailureLimiter(options: { maxPerMinute: number; now?: () => number; maxTracked?: number }): AuthFailureLimiter {
  const { maxPerMinute } = options;
  const now = options.now ?? Date.now;
  const maxTracked = options.maxTracked ?? MAX_TRACKED;
  // Insertion order is window-start order: the first key is the oldest window.
  const windows = new Map<string, Window>();

  function current(ip: string): Window | undefined {
    const window = windows.get(ip);
    if (window && window.endsAt <= now()) {
      windows.delete(ip);
      return undefined;
    }
    return window;
  }

  function recordFailure(ip: string): void {
    const window = current(ip);
    if (window) {
      window.failures++;
      return;
    }
    if (windows.size >= maxTracked) windows.delete(windows.keys().next().value!);
    windows.set(ip, { failures: 1, endsAt: now() + WINDOW_MS });
  }

  return {
    refuseWhileBlocked(ip, reply) {
      if (maxPerMinute === 0) return;
      const window = current(ip);
      if (!window || window.failures < maxPerMinute) return;
      const seconds = Math.max(1, Math.ceil((window.endsAt - now()) / 1000));
      reply.header('retry-after', String(seconds));
      throw new AppError('RATE_LIMITED', `Too many failed authentication attempts from this address; retry in ${seconds} seconds`, { retryAfterSeconds: seconds });
    },
    async counting(ip, authenticate) {
      try {
        return await authenticate();
      } catch (err) {
        if (maxPerMinute > 0 && err instanceof AppError && err.code === 'UNAUTHORIZED') recordFailure(ip);
        throw err;
      }
    },
  };
}
