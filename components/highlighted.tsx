import { MATCH_END, MATCH_START } from '@/lib/search-markers';

/** Renders a search snippet whose matched words are wrapped in the marker characters, as <mark>. */
export function Highlighted({ text }: { text: string }) {
  const parts = text.split(new RegExp(`(${MATCH_START}[^${MATCH_END}]*${MATCH_END})`));
  return <>{parts.map((part, i) => (part.startsWith(MATCH_START) ? <mark key={i}>{part.slice(1, -1)}</mark> : <span key={i}>{part}</span>))}</>;
}
