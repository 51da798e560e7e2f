/** Text to be matched literally inside a regular expression ("Co(NO3)2" as itself, not a group). Leaf module. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
