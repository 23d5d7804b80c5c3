/**
 * The session cookie (docs/architecture/people-and-sessions.md): HttpOnly (no script reads it),
 * SameSite=Strict (no cross-site request carries it), Path=/, and Secure except where NODE_ENV is
 * development or test, which serve plain http on localhost (a browser drops a Secure cookie there).
 * Parsed by hand: one cookie, one name, no dependency.
 */
export const SESSION_COOKIE = 'sid';
/**
 * An operator's session (src/modules/operators/): its own name, and a path that sends it only to
 * the back-office API, so it never reaches a merchant route and a merchant's `sid` is no operator.
 */
export const OPERATOR_SESSION_COOKIE = 'osid';
export const OPERATOR_COOKIE_PATH = '/api/v1/admin';

/** The value of cookie `name` in a Cookie header, if present once and non-empty. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const values = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  return values.length === 1 && values[0] ? values[0] : undefined;
}

export const secureCookies = (nodeEnv: string): boolean => nodeEnv !== 'development' && nodeEnv !== 'test';

/** Set-Cookie for a new session value; `maxAgeSeconds` 0 clears it. A merchant user's by default, or the operator's. */
export function sessionCookie(value: string, options: { secure: boolean; maxAgeSeconds: number; operator?: boolean }): string {
  const [name, path] = options.operator ? [OPERATOR_SESSION_COOKIE, OPERATOR_COOKIE_PATH] : [SESSION_COOKIE, '/'];
  return [`${name}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${options.maxAgeSeconds}`, ...(options.secure ? ['Secure'] : [])].join('; ');
}
