/**
 * Colours at WCAG AA contrast (axe: color-contrast), where Mantine's defaults fall short on white.
 * Inputs: Mantine writes a `description` in its dimmed grey and an `error` (and the erroneous
 * input's text) in red 6; inputs with either pass `styles={READABLE}`: body text, a darker red.
 * Badges: even Mantine's green.9 is only 4.4:1 under white text, so filled badges take these
 * darker tones (ok 7.9, bad 6.5, info 8.6, neutral 11.5, warn 6.2).
 */
export const READABLE = {
  description: { color: 'var(--mantine-color-text)' },
  error: { color: 'var(--mantine-color-red-9)' },
  input: { color: 'var(--mantine-color-text)' },
};

export const TONE = { ok: '#1b5e20', bad: '#b71c1c', info: '#0d47a1', neutral: '#343a40', warn: '#8a4b00' } as const;
