import path from 'node:path';
import { seededRandom } from '../../lib/common/random.ts';
import type { Database } from '../../lib/db/database.ts';
import { type RecipeRow, readRecipes } from '../../lib/evaluation/synthesis-eval.ts';
import { FAMILIES, type Family, INTENTS, type Intent, type SynthesisAspect, type Template } from './families.ts';
import { OUT_OF_SCOPE } from './out-of-scope.ts';

/**
 * The question bank: every intent in every wording family (families.ts), its slots filled from what this instance
 * holds when it runs — materials, properties and the papers that state them from the knowledge graph, recipes from
 * the records files — so that nothing of the corpus is kept in the repository. Deterministic for a seed and a corpus.
 */

export interface BankQuestion {
  id: string;
  intent: Intent;
  family: string;
  question: string;
  /** What filled the template's slots. */
  slots: { material?: string; material2?: string; method?: string; property?: string; condition?: string; aspect?: SynthesisAspect };
  /** What a right answer does. */
  expect: {
    /** A synthesis question: the recipe's target, the method asked (key; null: none asked) and whether the records hold it for the target. */
    recipe?: { targetKey: string; method: string | null; held: boolean; precursorKeys: string[] };
    /** Papers that state the fact asked (a which-paper or paper-list question). */
    paperIds?: string[];
    /** The answer must refuse (out of scope, or a method the records do not hold for the material). */
    refuse?: boolean;
  };
}

/** A material's property as the graph holds it, with the papers that state it. */
export interface BankFact {
  material: string;
  materialKey: string;
  property: string;
  paperIds: string[];
  /** A value a paper states for it, with its unit ("450 mW/cm2"), when the graph holds one. */
  value?: string;
}

export interface BankSources {
  facts: BankFact[];
  recipes: RecipeRow[];
  /** Paper id → title, for the questions that quote the paper they are about. */
  titles: Map<string, string>;
}

/** How the records' methods are written in a question, and methods the records hold for no material (the near misses). */
const METHOD_WORDS: Record<string, string[]> = {
  'sol-gel': ['sol-gel', 'the sol-gel method', 'a sol–gel route', 'sol gel processing'],
  'solid-state-reaction': ['solid-state reaction', 'a conventional solid state route', 'the ceramic method', 'solid state synthesis'],
};
const ABSENT_METHODS: Record<string, string> = {
  'hydrothermal synthesis': 'hydrothermal',
  'chemical vapour deposition': 'chemical-vapour-deposition',
  electrospinning: 'electrospinning',
  'spray pyrolysis': 'spray-pyrolysis',
  'atomic layer deposition': 'atomic-layer-deposition',
};
/** Share of synthesis questions that ask for a method the records do not hold. */
const NEAR_MISS_SHARE = 0.2;
const CONDITIONS = ['room temperature', '600 °C', '800 °C', '25 °C', '1000 K', '500 °C'];
const PROCESS_VERBS = ['calcined', 'dried', 'annealed', 'sintered', 'stirred', 'heated', 'aged', 'milled'];

/** The facts and recipes the bank is filled from: the graph of `db`, and the records files in `recordsDir`. */
export async function bankSources(db: Database, recordsDir: string): Promise<BankSources> {
  const rows = await db.prisma.$queryRaw<
    { material: string; materialKey: string; property: string; papers: string[]; value: number | null; unit: string | null }[]
  >`
    SELECT s.label AS material, s.key AS "materialKey", o.label AS property, array_agg(DISTINCT t."paperId") AS papers,
      min(t.value) AS value, min(t.unit) AS unit
    FROM "GraphTuple" t JOIN "GraphEntity" s ON s.id = t."subjectId" JOIN "GraphEntity" o ON o.id = t."objectId"
    WHERE t.relation = 'has_property' AND s.kind = 'material' AND s.formula IS NOT NULL AND o.kind = 'property' AND t."paperId" IS NOT NULL
      AND length(s.label) BETWEEN 3 AND 24
    GROUP BY s.label, s.key, o.label
    ORDER BY s.key, o.label`;
  const facts = rows.map((r) => ({
    material: r.material,
    materialKey: r.materialKey,
    property: r.property,
    paperIds: r.papers,
    ...(r.value !== null && r.unit ? { value: `${Number(r.value.toPrecision(3))} ${r.unit}` } : {}),
  }));
  const recipes = [
    ...(await readRecipes(path.join(recordsDir, 'sol-gel.jsonl.gz'), 'sol-gel')),
    ...(await readRecipes(path.join(recordsDir, 'solid-state.jsonl.gz'), 'solid-state-reaction')),
  ];
  const papers = await db.prisma.paper.findMany({ where: { id: { in: [...new Set(facts.flatMap((f) => f.paperIds))] } }, select: { id: true, title: true } });
  const titles = new Map(papers.filter((p) => p.title).map((p) => [p.id, p.title!]));
  return { facts, recipes, titles };
}

const fill = (text: string, slots: Record<string, string | undefined>) => text.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? '');

/** `perFamily` questions of every intent in every family (or those named), seeded. */
export function generateBank(sources: BankSources, opts: { perFamily?: number; seed?: number; families?: Family[] } = {}): BankQuestion[] {
  const perFamily = opts.perFamily ?? 30;
  const rnd = seededRandom(opts.seed ?? 81);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  if (!sources.facts.length) throw new Error('the graph holds no material property: import a corpus first');
  if (!sources.recipes.length) throw new Error('no recipes in the records files');
  // Facts of one property held for two materials (comparisons), and facts stated by two papers or more (paper lists).
  const byProperty = new Map<string, BankFact[]>();
  for (const f of sources.facts) byProperty.set(f.property, [...(byProperty.get(f.property) ?? []), f]);
  const comparable = [...byProperty.values()].filter((fs) => new Set(fs.map((f) => f.materialKey)).size >= 2);
  const multiPaper = sources.facts.filter((f) => f.paperIds.length >= 2);
  const valued = sources.facts.filter((f) => f.value);
  // Recipe targets with the methods the records hold for each.
  const heldMethods = new Map<string, Set<string>>();
  for (const r of sources.recipes) heldMethods.set(r.targetKey, (heldMethods.get(r.targetKey) ?? new Set()).add(r.method));

  const out: BankQuestion[] = [];
  for (const family of opts.families ?? FAMILIES)
    for (const intent of INTENTS) {
      const templates = family.templates[intent] ?? [];
      for (let i = 0; i < perFamily && templates.length; i++) {
        const template: Template = templates[i % templates.length];
        const id = `${intent}/${family.name}/${i + 1}`;
        const base = { id, intent, family: family.name };
        const condition = pick(CONDITIONS);
        const verb = pick(PROCESS_VERBS);
        if (intent === 'synthesis') {
          const r = pick(sources.recipes);
          if (template.text.includes('{t}')) {
            // About one paper: its own text answers, not the records.
            const f = pick(sources.facts);
            const title = sources.titles.get(f.paperIds[0]) ?? 'Untitled';
            out.push({
              ...base,
              question: fill(template.text, { m: f.material, t: title }),
              slots: { material: f.material, aspect: template.aspect },
              expect: {},
            });
            continue;
          }
          if (!template.text.includes('{meth}')) {
            out.push({
              ...base,
              question: fill(template.text, { m: r.target }),
              slots: { material: r.target, aspect: template.aspect },
              expect: { recipe: { targetKey: r.targetKey, method: null, held: true, precursorKeys: r.precursorKeys } },
            });
            continue;
          }
          const nearMiss = rnd() < NEAR_MISS_SHARE;
          const absent = pick(Object.keys(ABSENT_METHODS));
          const method = nearMiss ? ABSENT_METHODS[absent] : r.method;
          const written = nearMiss ? absent : pick(METHOD_WORDS[r.method]);
          const held = heldMethods.get(r.targetKey)?.has(method) ?? false;
          out.push({
            ...base,
            question: fill(template.text, { m: r.target, meth: written }),
            slots: { material: r.target, method: written, aspect: template.aspect },
            expect: { recipe: { targetKey: r.targetKey, method, held, precursorKeys: r.precursorKeys }, ...(held ? {} : { refuse: true }) },
          });
        } else if (intent === 'out-of-scope') {
          const o = pick(OUT_OF_SCOPE);
          out.push({ ...base, question: fill(template.text, { s: o.subject, a: o.asked }), slots: {}, expect: { refuse: true } });
        } else if (intent === 'comparison') {
          const fs = pick(comparable);
          const a = pick(fs);
          const others = fs.filter((f) => f.materialKey !== a.materialKey);
          const b = pick(others);
          out.push({
            ...base,
            question: fill(template.text, { m: a.material, m2: b.material, p: a.property, c: condition }),
            slots: { material: a.material, material2: b.material, property: a.property, condition },
            expect: {},
          });
        } else {
          const f =
            template.text.includes('{val}') && valued.length
              ? pick(valued)
              : intent === 'paper-list' && multiPaper.length
                ? pick(multiPaper)
                : pick(sources.facts);
          const title = sources.titles.get(f.paperIds[0]) ?? 'Untitled';
          out.push({
            ...base,
            question: fill(template.text, { m: f.material, p: f.property, c: condition, t: title, v: verb, val: f.value ?? '1.2 eV' }),
            slots: { material: f.material, property: f.property, condition },
            expect: intent === 'which-paper' || intent === 'paper-list' ? { paperIds: f.paperIds } : {},
          });
        }
      }
    }
  return out;
}
