import { paperOf } from '../evidence/model.ts';
import type { Answer } from './types.ts';

/**
 * What differs between answers to the same question from different pipelines: which papers each cites, which
 * papers the others cite too, and in a sentence each, where they agree and where they part. The compare screen
 * shows it above the answers; graders read it next.
 */
export interface ComparedPaper {
  key: string;
  title: string;
  /** Pipelines (by column) whose answer cites this paper. */
  citedBy: string[];
}

export interface Comparison {
  /** Per answer, in column order: the papers it cites, first cited first. */
  papers: ComparedPaper[][];
  /** Plain sentences: who agrees on the leading paper, who abstains, who cites what no other does. */
  summary: string[];
}

/** A paper's key in an answer's evidence: its DOI where known (records carry no paper id), else its id. */
function citedPapers(a: Answer): { key: string; title: string }[] {
  const byId = new Map(a.evidence.map((e) => [e.id, e]));
  const ids = a.sentences.flatMap((s) => s.citations);
  const out = new Map<string, string>();
  for (const id of ids) {
    const e = byId.get(id);
    const p = e && paperOf(e);
    const key = p?.doi ?? e?.paperId ?? null;
    if (key && !out.has(key)) out.set(key, p?.title ?? p?.doi ?? key);
  }
  return [...out].map(([key, title]) => ({ key, title }));
}

const list = (xs: string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

export function compareAnswers(columns: { label: string; answer: Answer }[]): Comparison {
  const cited = columns.map((c) => (c.answer.abstention.abstain ? [] : citedPapers(c.answer)));
  const citedBy = new Map<string, string[]>();
  cited.forEach((ps, i) => {
    for (const p of ps) citedBy.set(p.key, [...(citedBy.get(p.key) ?? []), columns[i].label]);
  });
  const papers = cited.map((ps) => ps.map((p) => ({ ...p, citedBy: citedBy.get(p.key)! })));

  const summary: string[] = [];
  const abstained = columns.filter((c) => c.answer.abstention.abstain).map((c) => c.label);
  // Group the answering columns by the paper their answer leads with.
  const leads = new Map<string, { title: string; labels: string[] }>();
  columns.forEach((c, i) => {
    const lead = cited[i][0];
    if (!lead) return;
    const group = leads.get(lead.key) ?? { title: lead.title, labels: [] };
    group.labels.push(c.label);
    leads.set(lead.key, group);
  });
  const groups = [...leads.values()];
  if (groups.length === 1 && groups[0].labels.length > 1) summary.push(`${list(groups[0].labels)} lead with the same paper: “${groups[0].title}”.`);
  else if (groups.length > 1) summary.push(`They lead with different papers: ${groups.map((g) => `${list(g.labels)} with “${g.title}”`).join('; ')}.`);
  const silent = columns.filter((c, i) => !c.answer.abstention.abstain && cited[i].length === 0).map((c) => c.label);
  if (silent.length) summary.push(`${list(silent)} cite${silent.length === 1 ? 's' : ''} no paper.`);
  if (abstained.length)
    summary.push(
      `${list(abstained)} abstain${abstained.length === 1 ? 's' : ''}: the corpus does not support an answer for ${abstained.length === 1 ? 'it' : 'them'}.`,
    );
  papers.forEach((ps, i) => {
    const own = ps.filter((p) => p.citedBy.length === 1);
    if (own.length && columns.length > 1 && ps.length > 0)
      summary.push(`Only ${columns[i].label} cites ${own.length === 1 ? `“${own[0].title}”` : `${own.length} papers`}.`);
  });
  return { papers, summary };
}
