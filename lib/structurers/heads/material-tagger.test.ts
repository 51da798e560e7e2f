import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { extractSynthesisEntities, synthesisMentionCandidates } from '../../structure/entities.ts';
import { materialKey } from '../../structure/materials.ts';
import { offlineExtractor, rulesExtractor } from '../../structure/paragraph.ts';
import { configuredExtractor } from '../select.ts';
import { fitMaterialTagger, fitMaterialTaggerOn } from './fit.ts';
import {
  MENTION_FEATURES,
  MENTION_FEATURES_VERSION,
  materialTagger,
  mentionFeatureNames,
  mentionFeatures,
  type MentionGoldParagraph,
  namedTagger,
} from './material-tagger.ts';
import { HEAD_LABELS, type HeadWeights } from './head.ts';
import { loadMaterialTagger, materialTaggerFile, saveMaterialTagger } from './store.ts';

// Invented paragraphs in the KIST re-ner shape. Their gold differs from the rules on purpose: a comparison sample the
// rules take for a target is no material of the recipe, and a product named only by its label ("sample A3") is the
// target, so a tagger that learned nothing scores as the rules do.
const metal = ['Ni', 'Co', 'Fe', 'Mn', 'Cu', 'Zn'];
function paragraph(i: number): { text: string; gold: { type: string; text: string }[] } {
  const m = metal[i % metal.length];
  const n = metal[(i + 1) % metal.length];
  const label = `QX-${i + 1}`;
  return {
    text:
      `In a typical synthesis, 2 mmol of ${m}(NO3)2·6H2O and 4 mmol of urea were dissolved in 30 mL of ethanol. ` +
      `The solution was heated at 120 °C for 6 h, and the product ${label} was obtained. ` +
      `For comparison, ${n}3O4 nanosheets were prepared in the same way.`,
    gold: [
      { type: 'PRECURSOR', text: `${m}(NO3)2·6H2O` },
      { type: 'ADDITIVE', text: 'urea' },
      { type: 'SOLVENT', text: 'ethanol' },
      { type: 'TARGET', text: label },
    ],
  };
}
const gold = (from: number, to: number): MentionGoldParagraph[] =>
  Array.from({ length: to - from }, (_, k) => {
    const p = paragraph(from + k);
    return {
      id: `P${from + k}_1.txt`,
      text: p.text,
      group: `P${from + k}`,
      entities: p.gold.map((e) => ({ role: e.type.toLowerCase(), key: materialKey(e.text) })),
    };
  });
const roles = (entities: { role: string; text: string }[]) => entities.map((e) => `${e.role}:${e.text}`).sort();

describe('material tagger', () => {
  it('lists the candidates no rule gives a role beside those the rules give one', () => {
    const text = paragraph(0).text;
    const candidates = synthesisMentionCandidates(text);
    expect(candidates.find((c) => c.text === 'QX-1')).toMatchObject({ role: null, source: 'unassigned' });
    expect(candidates.find((c) => c.text === 'urea')).toMatchObject({ role: 'additive', source: 'lexicon' });
    // The rules alone: the comparison sample as a target, the label left out.
    expect(roles(extractSynthesisEntities(text))).toContain('target:Co3O4');
    expect(roles(extractSynthesisEntities(text)).some((r) => r.endsWith('QX-1'))).toBe(false);
    const names = mentionFeatureNames(
      text,
      candidates,
      candidates.findIndex((c) => c.text === 'Co3O4'),
    );
    expect(names).toContain('sent:comparison');
    expect(names).toContain('rule:target');
  });

  it('learns the roles the gold gives and applies them to unseen paragraphs; the rules are untouched without it', async () => {
    const weights = await fitMaterialTaggerOn(gold(0, 24));
    const tag = materialTagger(weights);
    for (const p of [paragraph(30), paragraph(31)]) {
      const got = roles(extractSynthesisEntities(p.text, tag));
      expect(got).toEqual(roles(p.gold.map((e) => ({ role: e.type.toLowerCase(), text: e.text }))));
    }
    // A tagger's null drops a mention; every mention keeps its offsets.
    const none = extractSynthesisEntities(paragraph(30).text, (_, c) => c.map(() => null));
    expect(none).toEqual([]);
    const text = paragraph(30).text;
    for (const e of extractSynthesisEntities(text, tag)) expect(text.slice(e.start, e.end)).toBe(e.text);
  });

  it('drops a material the rules placed only when sure it is none, keeps their solvents and reagents, and their product where it finds none', () => {
    // Weights that read nothing and say "none" at a fixed probability for every candidate.
    const saying = (none: number): HeadWeights => {
      const labels = [...HEAD_LABELS['material-role']];
      const rest = (1 - none) / (labels.length - 1);
      return {
        task: 'material-role',
        inputs: 'mention-features',
        labels,
        kernel: new Array(MENTION_FEATURES * labels.length).fill(0),
        bias: labels.map((l) => Math.log(l === 'none' ? none : rest)),
        features: MENTION_FEATURES,
      };
    };
    const text = paragraph(0).text;
    const unsure = roles(extractSynthesisEntities(text, materialTagger(saying(0.6))));
    expect(unsure).toEqual(roles(extractSynthesisEntities(text)));
    const sure = roles(extractSynthesisEntities(text, materialTagger(saying(0.9))));
    // Sure: the reagents go, the solvent and the rules' product (no other product found) stay.
    expect(sure).toEqual(['solvent:ethanol', 'target:Co3O4']);
  });

  it('names one product per paragraph: the likeliest, unless even it is unlikely; the others keep their next role', () => {
    const text = paragraph(0).text;
    const candidates = synthesisMentionCandidates(text);
    const labels = [...HEAD_LABELS['material-role']];
    const at = (label: string) => labels.indexOf(label);
    // Weights that lean every candidate to "target" and the label QX-1 (its own features) further; reagents as before.
    const leaning = (target: number): HeadWeights => {
      const kernel = new Array(MENTION_FEATURES * labels.length).fill(0);
      const own = mentionFeatures(
        text,
        candidates,
        candidates.findIndex((c) => c.text === 'QX-1'),
      );
      const other = mentionFeatures(
        text,
        candidates,
        candidates.findIndex((c) => c.text === 'Co3O4'),
      );
      own.forEach((x, f) => {
        if (x > 0 && other[f] === 0) kernel[f * labels.length + at('target')] = 1;
      });
      const bias = labels.map((l) => (l === 'target' ? Math.log(target) : l === 'none' ? Math.log(0.05) : Math.log((1 - target - 0.05) / (labels.length - 2))));
      return { task: 'material-role', inputs: 'mention-features', labels, kernel, bias, features: MENTION_FEATURES };
    };
    const tagged = extractSynthesisEntities(text, materialTagger(leaning(0.6)));
    // Co3O4, which the rules read as the product and the tagger thinks likely too, is not a second one.
    expect(tagged.filter((e) => e.role === 'target').map((e) => e.text)).toEqual(['QX-1']);
    expect(roles(tagged)).toContain('solvent:ethanol');
    expect(roles(tagged)).toContain('precursor:Ni(NO3)2·6H2O');
  });

  it('makes another cut of a name the product or nothing, and a reagent written with its amount, an acid or a gas never the product', () => {
    const labels = [...HEAD_LABELS['material-role']];
    // Weights that read nothing and lean every candidate to one label.
    const leaningTo = (label: string): HeadWeights => ({
      task: 'material-role',
      inputs: 'mention-features',
      labels,
      kernel: new Array(MENTION_FEATURES * labels.length).fill(0),
      bias: labels.map((l) => Math.log(l === label ? 0.9 : 0.1 / (labels.length - 1))),
      features: MENTION_FEATURES,
    });
    const text = 'Ni(NO3)2·6H2O (2 mmol) was dissolved in 30 mL of water and heated at 120 °C for 6 h. Afterwards, the Ni(OH)2 was annealed at 300 °C in air.';
    const rules = extractSynthesisEntities(text);
    // The rules read both nickel compounds as reagents; the one without an amount may be the product, the weighed one not.
    expect(roles(rules)).toEqual(expect.arrayContaining(['precursor:Ni(NO3)2·6H2O', 'precursor:Ni(OH)2']));
    const tagged = roles(extractSynthesisEntities(text, materialTagger(leaningTo('target'))));
    expect(tagged).toContain('target:Ni(OH)2');
    expect(tagged).toContain('precursor:Ni(NO3)2·6H2O');

    // Nor is an acid or a gas, whatever phrase it stands in.
    const acid = 'The foam was etched in H2SO4 under H2/Ar, and NiO was obtained after annealing.';
    expect(synthesisMentionCandidates(acid).map((c) => c.text)).toEqual(expect.arrayContaining(['H2SO4', 'NiO']));
    expect(
      extractSynthesisEntities(acid, materialTagger(leaningTo('target')))
        .filter((e) => e.role === 'target')
        .map((e) => e.text),
    ).toEqual(['NiO']);

    const supported = 'For the synthesis of Co3O4 nanowires/carbon cloth, 4 mmol of Co(NO3)2·6H2O was dissolved in 30 mL of water.';
    const cut = synthesisMentionCandidates(supported).find((c) => c.source === 'variant');
    expect(cut).toMatchObject({ text: 'Co3O4 nanowires/carbon cloth', variant: 'head-support', role: null });
    // A cut the tagger leans to a reagent's role is nothing; leaned to the product, it is the product and the shorter
    // name inside it is not a second material.
    expect(extractSynthesisEntities(supported, materialTagger(leaningTo('precursor'))).some((e) => e.text === cut?.text)).toBe(false);
    const weights = leaningTo('precursor');
    const candidates = synthesisMentionCandidates(supported);
    const own = mentionFeatures(
      supported,
      candidates,
      candidates.findIndex((c) => c.source === 'variant'),
    );
    own.forEach((x, f) => {
      if (x > 0) weights.kernel[f * labels.length + labels.indexOf('target')] += 0.5;
    });
    const product = extractSynthesisEntities(supported, materialTagger(weights));
    expect(product.filter((e) => e.role === 'target').map((e) => e.text)).toEqual(['Co3O4 nanowires/carbon cloth']);
    expect(product.some((e) => e.text === 'Co3O4')).toBe(false);
  });

  it('reads what a washing step washes, and a product named only by what it is, as candidates', () => {
    const text =
      'CoCl2·6H2O (1 mmol) was dissolved in 20 mL of water and heated at 180 °C for 12 h. The CoSe2 was dried at 60 °C. ' +
      'The reddish brown sample was collected.';
    const candidates = synthesisMentionCandidates(text);
    expect(candidates.find((c) => c.text === 'CoSe2')).toMatchObject({ role: null, source: 'unassigned' });
    expect(candidates.find((c) => c.text === 'reddish brown sample')).toMatchObject({ role: null, source: 'unassigned' });
    const names = mentionFeatureNames(
      text,
      candidates,
      candidates.findIndex((c) => c.text === 'CoSe2'),
    );
    expect(names).toContain('sent:washing-verb');
    // A bare "samples" is none.
    expect(synthesisMentionCandidates('The samples were washed with ethanol.').some((c) => /sample/.test(c.text))).toBe(false);
  });

  it('is trained from a gold file into the data folder, chosen when present, and ignored when its features changed', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-tagger-'));
    const file = path.join(dataDir, 're-ner.jsonl');
    fs.writeFileSync(
      file,
      Array.from({ length: 24 }, (_, i) => JSON.stringify({ id: `P${i}_1.txt`, text: paragraph(i).text, entities: paragraph(i).gold })).join('\n'),
    );
    const db = {} as Database;
    const cfg = readConfig({ ASSAY_DATA_DIR: dataDir });
    expect(cfg.materialTagger).toBe('auto');
    // Absent: the rules give the roles.
    expect(configuredExtractor(db, cfg).extractor.id).toBe(offlineExtractor.id);
    const tagger = await fitMaterialTagger({ gold: [{ task: 'material-role', file }], records: null });
    expect(tagger.sources).toEqual([{ task: 'material-role', source: 're-ner.jsonl', rows: 24 }]);
    saveMaterialTagger(dataDir, tagger);
    expect(loadMaterialTagger(dataDir, MENTION_FEATURES_VERSION)?.id).toBe(tagger.id);
    const { extractor } = configuredExtractor(db, cfg);
    expect(extractor.id).toBe(`${offlineExtractor.id}+${tagger.id}`);
    const structured = await extractor.structureParagraph(paragraph(40).text);
    expect(roles(structured.entities)).toContain('target:QX-41');
    expect(rulesExtractor(namedTagger(tagger)).id).toBe(extractor.id);
    // Switched off, or fitted on other features, or damaged: the rules.
    expect(configuredExtractor(db, { ...cfg, materialTagger: 'off' }).extractor.id).toBe(offlineExtractor.id);
    expect(loadMaterialTagger(dataDir, 'mentions@0-other')).toBeNull();
    fs.writeFileSync(materialTaggerFile(dataDir), '{"weights":');
    expect(loadMaterialTagger(dataDir, MENTION_FEATURES_VERSION)).toBeNull();
    expect(configuredExtractor(db, cfg).extractor.id).toBe(offlineExtractor.id);
  });
});
