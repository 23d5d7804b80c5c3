/**
 * Mantine draws input descriptions in its "dimmed" grey, under the 4.5:1 contrast WCAG AA asks
 * (axe's color-contrast); the help texts here are read, so they take the body text's colour.
 */
export const READABLE = { description: { color: 'var(--mantine-color-text)' } };

/**
 * Badge colours, filled with white text: Mantine's green.9 is only 4.4:1 against white, so these
 * are darker tones that pass 4.5:1 at a badge's small bold type (ok 7.9, bad 6.5, info 8.6, neutral 11.5).
 */
export const TONE = { ok: '#1b5e20', bad: '#b71c1c', info: '#0d47a1', neutral: '#343a40' } as const;
