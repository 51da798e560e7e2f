/**
 * Control characters other than tab, newline and carriage return (NUL above all): refused in questions, filters
 * and query strings rather than read with the character dropped. Plain JavaScript with no imports: the HTTP server's
 * request gate (request-gate.mjs) loads it before anything is compiled, and pages and the browser's forms share it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Whether `s` holds a control character other than tab, newline and carriage return. */
export const hasControlChars = (s) => s.replace(CONTROL_CHARS, '') !== s;

/** The refusal of a query that holds a control character in a parameter's name or value, or null. */
export function controlCharRefusal(params) {
  for (const [name, value] of params)
    if (hasControlChars(name) || hasControlChars(value))
      return `the query parameter ${JSON.stringify(name.replace(CONTROL_CHARS, '?'))} must not contain control characters (such as NUL)`;
  return null;
}
