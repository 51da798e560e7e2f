/**
 * Names a question may use for a material that Wikidata links to a graph entity (lib/graph/entity-links.ts): an
 * alias of the linked item ("magnesium diboride", "magnesium boride") is read as the entity's own label ("MgB2")
 * before the question is analysed and searched, so the question reaches the tuples and paragraphs that write the
 * formula. Only materials: a property's aliases ("conductivity" for electrical conductivity) would narrow what a
 * question asks. The trace lists every replacement with its Wikidata item.
 */
export interface LinkedName {
  alias: string;
  label: string;
  qid: string;
}

// Length-preserving, so offsets found in the folded text hold in the question.
const fold = (s: string) => s.toLowerCase().replace(/[‐-―−]/g, '-');

/** Aliases by folded spelling (the longest first when one contains another), from the linked materials. */
export function linkedNameMap(rows: { label: string; qid: string; aliases: string[] }[]): Map<string, LinkedName> {
  const map = new Map<string, LinkedName>();
  for (const r of rows)
    for (const alias of r.aliases) {
      const key = fold(alias.trim());
      // Short aliases ("Mg", "LSC") and the label itself say nothing new; an alias two entities share is ambiguous.
      if (key.length < 5 || key === fold(r.label)) continue;
      if (map.has(key) && map.get(key)!.label !== r.label) map.set(key, { alias: '', label: '', qid: '' });
      else map.set(key, { alias: alias.trim(), label: r.label, qid: r.qid });
    }
  for (const [k, v] of map) if (!v.label) map.delete(k);
  return new Map([...map].sort((a, b) => b[0].length - a[0].length));
}

/** The question with each linked alias replaced by its entity's label, and what was replaced. */
export function expandLinkedNames(
  names: ReadonlyMap<string, LinkedName>,
  text: string,
): { text: string; expansions: { from: string; to: string; qid: string }[] } {
  if (names.size === 0) return { text, expansions: [] };
  let out = text;
  const expansions: { from: string; to: string; qid: string }[] = [];
  const folded = () => fold(out);
  for (const [key, name] of names) {
    let at = folded().indexOf(key);
    while (at >= 0) {
      const before = out[at - 1] ?? ' ';
      const after = out[at + key.length] ?? ' ';
      if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) {
        expansions.push({ from: out.slice(at, at + key.length), to: name.label, qid: name.qid });
        out = out.slice(0, at) + name.label + out.slice(at + key.length);
        at = folded().indexOf(key, at + name.label.length);
      } else at = folded().indexOf(key, at + 1);
    }
  }
  return { text: out, expansions };
}
