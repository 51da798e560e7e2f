import type { Database } from '../db/database.ts';
import { propertyTuplesOf } from '../db/graph.ts';
import type { TupleCheckRow } from '../db/tuple-checks.ts';
import type { TupleDraft } from './tuples.ts';
import { createHash } from 'node:crypto';
import { tupleStatement, validateTuples, validationRulesSource } from './validate-tuples.ts';

/** `Paper.source` of the papers "look for papers" imported: their tuples are validated before they join the graph. */
export const FOUND_ONLINE_SOURCE = 'Online search';

/** The validation rules, in the graph stamp of found papers only: a change to them validates those papers again. */
export const FOUND_RULES = `found-${createHash('sha256').update(validationRulesSource()).digest('hex').slice(0, 10)}:`;

const statementOf = (t: TupleDraft) => tupleStatement({ ...t, subject: t.subject.surface, object: t.object.surface });

/**
 * Validates the tuples of one paper found online against the rules and the graph's values of the same materials
 * (validate-tuples.ts): what joins the graph, and the checks to store (rejected tuples, conflicts with the tuples
 * they disagree with). `idOf` gives a draft its stored tuple id, so a flagged conflict points at its tuple.
 */
export async function checkFoundPaper(
  db: Database,
  paperId: string,
  drafts: TupleDraft[],
  idOf: (t: TupleDraft) => string,
): Promise<{ accepted: TupleDraft[]; checks: TupleCheckRow[] }> {
  const subjects = [...new Set(drafts.filter((t) => t.relation === 'has_property').map((t) => t.subject.key))];
  const existing = await propertyTuplesOf(db, subjects);
  const labels = new Map(existing.map((e) => [e.id, tupleStatement({ ...e, relation: 'has_property', subject: e.subjectLabel, object: e.objectLabel })]));
  const v = validateTuples(drafts, paperId, existing);
  const checks: TupleCheckRow[] = [
    ...v.rejected.map(({ draft, problem }) => ({
      paperId,
      tupleId: null,
      verdict: 'rejected' as const,
      rule: problem.rule,
      message: problem.message,
      statement: statementOf(draft),
      paragraphId: draft.paragraphId,
      sentence: draft.sentence,
      conflictsWith: [],
    })),
    // One flag per stored tuple (two spellings of a claim can make one tuple).
    ...v.conflicts
      .filter(({ draft }, i, all) => all.findIndex((c) => idOf(c.draft) === idOf(draft)) === i)
      .map(({ draft, with: others }) => ({
        paperId,
        tupleId: idOf(draft),
        verdict: 'conflict' as const,
        rule: 'conflict' as const,
        message: `disagrees with ${others.length === 1 ? 'a value' : `${others.length} values`} another paper gives under the same conditions`,
        statement: statementOf(draft),
        paragraphId: draft.paragraphId,
        sentence: draft.sentence,
        conflictsWith: others.slice(0, 5).map((o) => ({ tupleId: o.id, paperId: o.paperId, statement: labels.get(o.id) ?? o.id })),
      })),
  ];
  return { accepted: v.accepted, checks };
}
