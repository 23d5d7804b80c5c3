/**
 * Mantine writes an input's `description` in its dimmed grey and its `error` (and the erroneous
 * input's text) in red 6, both below WCAG AA contrast on white (axe: color-contrast). Inputs with
 * a description or an error pass `styles={READABLE}`: body text, and a darker red.
 */
export const READABLE = {
  description: { color: 'var(--mantine-color-text)' },
  error: { color: 'var(--mantine-color-red-9)' },
  input: { color: 'var(--mantine-color-text)' },
};
