import { describe, expect, it } from 'vitest';
import { readCookie, secureCookies, sessionCookie } from '../../src/http/cookies.ts';

describe('session cookie', () => {
  it('is Secure except where NODE_ENV is development or test (plain http on localhost)', () => {
    expect(secureCookies('production')).toBe(true);
    expect(secureCookies('development')).toBe(false);
    expect(secureCookies('test')).toBe(false);
    expect(sessionCookie('v', { secure: true, maxAgeSeconds: 60 })).toBe('sid=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=60; Secure');
  });

  it('reads the one sid value; none when absent, empty or sent twice (an injected second cookie)', () => {
    expect(readCookie('a=1; sid=abc; b=2', 'sid')).toBe('abc');
    expect(readCookie('sidx=1', 'sid')).toBeUndefined();
    expect(readCookie('sid=', 'sid')).toBeUndefined();
    expect(readCookie('sid=a; sid=b', 'sid')).toBeUndefined();
    expect(readCookie(undefined, 'sid')).toBeUndefined();
  });
});
