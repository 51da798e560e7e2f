import { z } from 'zod';

/**
 * The grading rubrics (../shared/METHODS.md §B and §C) and the shape of one grade. A rubric is data: its criteria,
 * their range and a description per score, so the grading screen, validation, results and export all read the
 * same definition.
 */
export interface Criterion {
  id: string;
  label: string;
  min: number;
  max: number;
  /** What each score means: anchors at some scores; a score between anchors reads the nearest lower one. */
  anchors: Record<number, string>;
}

export interface Rubric {
  id: RubricId;
  label: string;
  summary: string;
  /** Scored per answer; empty for the pairwise rubric, which asks for one preference instead. */
  criteria: Criterion[];
  pairwise: boolean;
}

export const RUBRIC_IDS = ['content-citation', 'six-criteria', 'pairwise'] as const;
export type RubricId = (typeof RUBRIC_IDS)[number];

const zeroToFive = (anchors: [string, string, string, string, string, string]): Record<number, string> =>
  Object.fromEntries(anchors.map((a, i) => [i, `${i}: ${a}`]));

const tenScale = (anchors: [string, string, string, string, string, string]): Record<number, string> => ({
  0: `0–1: ${anchors[0]}`,
  2: `2–3: ${anchors[1]}`,
  4: `4–5: ${anchors[2]}`,
  6: `6–7: ${anchors[3]}`,
  8: `8–9: ${anchors[4]}`,
  10: `10: ${anchors[5]}`,
});

export const RUBRICS: Record<RubricId, Rubric> = {
  'content-citation': {
    id: 'content-citation',
    label: 'Content + citation (0–5 each)',
    summary:
      'a grader gives up to five points for whether what the answer says is right and complete, and up to five for whether each cited paragraph or tuple really states what its sentence claims; the two add up to a score out of 10 (the expert grading of the polymer literature study, METHODS §B).',
    pairwise: false,
    criteria: [
      {
        id: 'content',
        label: 'Content',
        min: 0,
        max: 5,
        anchors: zeroToFive([
          'wrong or no answer where the corpus has one',
          'mostly wrong; a fragment is right',
          'partly right, with errors a chemist would notice',
          'right in substance, incomplete or imprecise',
          'right and complete, minor wording issues',
          'right, complete and precise (values, units, conditions); or a justified "I do not know"',
        ]),
      },
      {
        id: 'citation',
        label: 'Citation',
        min: 0,
        max: 5,
        anchors: zeroToFive([
          'no citations, or citations that do not support anything said',
          'few claims cited; most citations do not support them',
          'about half the claims cited by paragraphs that support them',
          'most claims cited correctly; some wrong or missing',
          'all claims cited; one citation weak or imprecise',
          'every claim cited by the paragraph or tuple that states it',
        ]),
      },
    ],
  },
  'six-criteria': {
    id: 'six-criteria',
    label: 'Six criteria (0–10 each)',
    summary:
      'a grader scores six qualities from 0 to 10: scientific accuracy, functional equivalence to the expected answer, reasoning quality, completeness, interpretability and an overall score (the criteria of the causal-graph study, METHODS §C; its model judge uses the same ones).',
    pairwise: false,
    criteria: [
      {
        id: 'accuracy',
        label: 'Scientific accuracy',
        min: 0,
        max: 10,
        anchors: tenScale([
          'false or chemically impossible',
          'major errors',
          'mixed: some right, some wrong',
          'right with minor slips',
          'right, minor imprecision',
          'fully right and precise',
        ]),
      },
      {
        id: 'equivalence',
        label: 'Functional equivalence',
        min: 0,
        max: 10,
        anchors: tenScale([
          'would not lead to the reference outcome',
          'unlikely to work as the reference does',
          'works in part',
          'mostly equivalent',
          'equivalent with small differences',
          'equivalent to the reference answer',
        ]),
      },
      {
        id: 'reasoning',
        label: 'Reasoning quality',
        min: 0,
        max: 10,
        anchors: tenScale([
          'no reasoning or incoherent',
          'reasoning with large gaps',
          'plausible but loosely argued',
          'sound, some steps unstated',
          'sound and explicit',
          'rigorous, each step grounded in evidence',
        ]),
      },
      {
        id: 'completeness',
        label: 'Completeness',
        min: 0,
        max: 10,
        anchors: tenScale([
          'misses the question',
          'covers a small part',
          'covers about half',
          'covers most',
          'covers all, little detail missing',
          'covers everything asked',
        ]),
      },
      {
        id: 'interpretability',
        label: 'Interpretability',
        min: 0,
        max: 10,
        anchors: tenScale([
          'cannot be followed',
          'hard to follow',
          'followable with effort',
          'clear',
          'clear and well organised',
          'clear, organised, every claim traceable',
        ]),
      },
      {
        id: 'overall',
        label: 'Overall',
        min: 0,
        max: 10,
        anchors: tenScale(['useless or harmful', 'poor', 'fair', 'good', 'very good', 'excellent']),
      },
    ],
  },
  pairwise: {
    id: 'pairwise',
    label: 'Blind pairwise preference',
    summary: 'two answers side by side with their pipelines hidden; the grader says which is better (A, B or a tie) and why.',
    pairwise: true,
    criteria: [],
  },
};

export const isRubricId = (v: unknown): v is RubricId => typeof v === 'string' && (RUBRIC_IDS as readonly string[]).includes(v);

/** The anchor text that describes `score` on a criterion. */
export function describeScore(c: Criterion, score: number): string {
  const at = Object.keys(c.anchors)
    .map(Number)
    .filter((a) => a <= score)
    .sort((a, b) => b - a)[0];
  return at === undefined ? '' : c.anchors[at];
}

export const CLAIM_MARKS = ['supported', 'unsupported', 'wrong-citation'] as const;
export type ClaimMark = (typeof CLAIM_MARKS)[number];
export const EVIDENCE_FLAGS = ['wrong-paragraph', 'bad-tuple', 'bad-merge'] as const;
export type EvidenceFlag = (typeof EVIDENCE_FLAGS)[number];

const id = z.string().min(1).max(100);
/** One grade as stored and as the grading screen sends it. Keys of scores and claims are campaign answer ids. */
export const marksSchema = z.object({
  scores: z.record(id, z.record(id, z.number().int().min(0).max(10))).default({}),
  preference: z
    .object({ winner: z.union([id, z.literal('tie')]), reason: z.string().max(4000).default('') })
    .nullable()
    .default(null),
  claims: z.record(id, z.record(z.string().regex(/^\d{1,4}$/), z.enum(CLAIM_MARKS))).default({}),
  flags: z
    .array(z.object({ answerId: id, evidenceId: z.string().min(1).max(300), kind: z.enum(EVIDENCE_FLAGS), comment: z.string().max(4000).default('') }))
    .max(200)
    .default([]),
  comment: z.string().max(8000).default(''),
});
export type Marks = z.infer<typeof marksSchema>;

export const emptyMarks = (): Marks => ({ scores: {}, preference: null, claims: {}, flags: [], comment: '' });

/**
 * What still stops a grade from being submitted (empty: complete): every criterion of every answer scored within
 * its range, or for the pairwise rubric a preference naming one of the answers or a tie.
 */
export function missingMarks(rubric: Rubric, marks: Marks, answerIds: string[]): string[] {
  const missing: string[] = [];
  if (rubric.pairwise) {
    const w = marks.preference?.winner;
    if (!w || (w !== 'tie' && !answerIds.includes(w))) missing.push('a preference (A, tie or B)');
    return missing;
  }
  answerIds.forEach((a, i) => {
    for (const c of rubric.criteria) {
      const v = marks.scores[a]?.[c.id];
      if (v === undefined || v < c.min || v > c.max) missing.push(`${c.label} of answer ${String.fromCharCode(65 + i)}`);
    }
  });
  return missing;
}

/** Rejects scores outside the rubric's ranges or for answers not in the item (a draft may still be partial). */
export function checkMarks(rubric: Rubric, marks: Marks, answerIds: string[]): string | null {
  for (const [answerId, scores] of Object.entries(marks.scores)) {
    if (!answerIds.includes(answerId)) return `no answer ${answerId} in this item`;
    for (const [criterion, v] of Object.entries(scores)) {
      const c = rubric.criteria.find((x) => x.id === criterion);
      if (!c) return `the ${rubric.label} rubric has no criterion ${criterion}`;
      if (v < c.min || v > c.max) return `${c.label} is scored ${c.min}–${c.max}`;
    }
  }
  for (const answerId of [...Object.keys(marks.claims), ...marks.flags.map((f) => f.answerId)])
    if (!answerIds.includes(answerId)) return `no answer ${answerId} in this item`;
  const w = marks.preference?.winner;
  if (w && w !== 'tie' && !answerIds.includes(w)) return `no answer ${w} in this item`;
  if (marks.preference && !rubric.pairwise) return 'this rubric has no preference';
  return null;
}
