/** See control-chars.mjs. */
export const CONTROL_CHARS: RegExp;
export function hasControlChars(s: string): boolean;
export function controlCharRefusal(params: Iterable<[string, string]>): string | null;
