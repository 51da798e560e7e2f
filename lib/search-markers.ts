/** Marks around matched words in search snippets: control characters that cleaned paper text never contains. */
export const MATCH_START = '\u0001';
export const MATCH_END = '\u0002';
