import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { BGE_MODEL } from '../../embedding/bge-model.ts';
import { offlineExtractor } from '../../structure/paragraph.ts';
import { configuredExtractor } from '../select.ts';
import { headsExtractor } from './extractor.ts';
import { HEAD_LABELS, headFeatures, predictLabel, type ParagraphHeadTask } from './head.ts';
import { headsId, loadHeads, saveHeads, type StructuringHeads } from './store.ts';
import { trainHead } from './train.ts';

// A stand-in encoder for these tests: a paragraph's vector says whether it reads as a procedure (1 in the first
// component) or as a measurement setup (1 in the second). The real heads read bge-small's vectors.
const DIMS = 8;
const fakeVector = (text: string) => {
  const v = new Array(DIMS).fill(0);
  if (/\b(?:autoclave|calcined|dissolved)\b/.test(text)) v[0] = 1;
  if (/\b(?:electrode|workstation|electrochemical tests)\b/.test(text)) v[1] = 1;
  if (/\b(?:hydrothermal|autoclave)\b/.test(text)) v[2] = 1;
  if (/\b(?:calcined|ground)\b/.test(text)) v[3] = 1;
  return v;
};

const SYNTHESIS =
  'In a typical synthesis, 2 mmol of Ni(NO3)2·6H2O were dissolved in 30 mL of water, transferred to a Teflon-lined autoclave and heated at 120 °C for 6 h.';
const SOLID = 'Stoichiometric amounts of La2O3 and MnO2 were ground in an agate mortar, pressed and calcined at 1100 °C for 12 h to give LaMnO3.';
// Written to read as synthesis to the rules (an electrodeposition, "dried and weighed") while it sets up a
// measurement: the loading of the films tested.
const INK =
  'To choose the deposition time, NiFeP films were electrodeposited on nickel foam for 30, 60 and 120 s, and each film was then dried and weighed to give its mass loading for the electrochemical tests.';

function rowsFor(task: ParagraphHeadTask) {
  const texts: [string, string][] =
    task === 'paragraph-role'
      ? [
          [SYNTHESIS, 'synthesis'],
          [SOLID, 'synthesis'],
          [INK, 'system'],
          ['Electrochemical tests were carried out on a CHI 660E workstation with a graphite rod counter electrode.', 'system'],
        ]
      : [
          [SYNTHESIS, 'hydro-solvothermal'],
          [SOLID, 'solid-phase'],
        ];
  // Several copies each: a learner needs more than one row per class.
  return Array.from({ length: 6 }, () =>
    texts.map(([text, label]) => ({ label, features: headFeatures(task, 'encoder+rules', text, fakeVector(text)) })),
  ).flat();
}

async function trainedHeads(): Promise<StructuringHeads> {
  const role = await trainHead('paragraph-role', 'encoder+rules', rowsFor('paragraph-role'), { epochs: 200 });
  const method = await trainHead('synthesis-method', 'encoder+rules', rowsFor('synthesis-method'), { epochs: 200 });
  return { id: headsId(role, method), encoder: BGE_MODEL.id, trainedAt: new Date().toISOString(), sources: [], role, method };
}

describe('trained structuring heads', () => {
  it('learn, predict probabilities over their labels, and are the same for the same rows', async () => {
    const heads = await trainedHeads();
    expect(heads.role.labels).toEqual([...HEAD_LABELS['paragraph-role']]);
    expect(heads.role.features).toBe(DIMS + HEAD_LABELS['paragraph-role'].length);
    const ink = predictLabel(heads.role, headFeatures('paragraph-role', 'encoder+rules', INK, fakeVector(INK)));
    expect(ink.label).toBe('system');
    expect(ink.probability).toBeGreaterThan(0.5);
    expect(ink.probability).toBeLessThanOrEqual(1);
    expect((await trainedHeads()).id).toBe(heads.id);
  });

  it('structure a paragraph: role and method from the heads, materials from the rules; the rules alone otherwise', async () => {
    const heads = await trainedHeads();
    // The rules read the ink paragraph as synthesis; the head reviews it.
    expect(offlineExtractor.structureParagraph(INK).role).toBe('synthesis');
    const embedded: string[] = [];
    const extractor = headsExtractor(heads, {
      embed: async (texts) => {
        embedded.push(...texts);
        return texts.map(fakeVector);
      },
      stored: async (texts) => texts.map(() => false),
    });
    expect(extractor.id).toMatch(/^heads@[0-9a-f]{10}\+offline@/);
    await extractor.prepare!([INK, SOLID, 'The authors thank the funding agency.']);
    // Only the paragraphs the head reviews are embedded.
    expect(embedded.sort()).toEqual([INK, SOLID].sort());
    expect((await extractor.structureParagraph(INK)).role).toBe('system');
    const solid = await extractor.structureParagraph(SOLID);
    expect(solid.role).toBe('synthesis');
    expect(solid.method).toBe('solid-phase');
    expect(solid.entities.map((e) => e.text)).toContain('La2O3');
  });

  it('embed at most a budget of new paragraphs per run: vectors already stored are read, the rest keep the rules and say so', async () => {
    const heads = await trainedHeads();
    const embedded: string[] = [];
    const extractor = headsExtractor(
      heads,
      {
        embed: async (texts) => {
          embedded.push(...texts);
          return texts.map(fakeVector);
        },
        // The solid-state paragraph's vector is stored already (the dense index embedded it).
        stored: async (texts) => texts.map((t) => t === SOLID),
      },
      { budget: 0 },
    );
    await extractor.prepare!([INK, SOLID]);
    expect(embedded).toEqual([SOLID]);
    expect((await extractor.structureParagraph(SOLID)).method).toBe('solid-phase');
    const ink = await extractor.structureParagraph(INK);
    expect(ink.role).toBe('synthesis');
    expect(ink.structurer).toBe(offlineExtractor.id);
  });

  it('read a paragraph outside the prepared page as it was stamped: heads where its vector is stored, else the rules', async () => {
    const embedded: string[] = [];
    const extractor = headsExtractor(await trainedHeads(), {
      embed: async (texts) => {
        embedded.push(...texts);
        return texts.map(fakeVector);
      },
      stored: async (texts) => texts.map((t) => t === INK),
    });
    // A record rebuilt from its paper's paragraphs asks for paragraphs no page prepared.
    expect((await extractor.structureParagraph(INK)).role).toBe('system');
    const solid = await extractor.structureParagraph(SOLID);
    expect(solid.structurer).toBe(offlineExtractor.id);
    expect(embedded).toEqual([INK]);
  });

  it('fail a reviewed paragraph (to be retried) when the encoder fails, rather than stamping the rules as the heads', async () => {
    const extractor = headsExtractor(await trainedHeads(), {
      embed: async () => {
        throw new Error('model thread stopped');
      },
      stored: async (texts) => texts.map(() => false),
    });
    await extractor.prepare!([INK]);
    await expect(extractor.structureParagraph(INK)).rejects.toThrow(/model thread stopped/);
  });

  it('are cached in the data folder and chosen when present; without them the rules structure papers', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-heads-'));
    const db = {} as Database;
    const cfg = { ...readConfig({ ASSAY_DATA_DIR: dataDir, ASSAY_STRUCTURING_HEADS: 'auto' }), localEmbedder: 'model' as const };
    expect(configuredExtractor(db, cfg).extractor.id).toBe(offlineExtractor.id);
    const heads = await trainedHeads();
    saveHeads(dataDir, heads);
    expect(loadHeads(dataDir, BGE_MODEL.id)?.id).toBe(heads.id);
    expect(configuredExtractor(db, cfg).extractor.id).toBe(`heads@${heads.id}+${offlineExtractor.id}`);
    // Not with the n-gram embedder (the heads read the model's vectors), nor when switched off.
    expect(configuredExtractor(db, { ...cfg, localEmbedder: 'ngram' }).extractor.id).toBe(offlineExtractor.id);
    expect(configuredExtractor(db, { ...cfg, structuringHeads: 'off' }).extractor.id).toBe(offlineExtractor.id);
    // A damaged file is no heads.
    fs.writeFileSync(path.join(dataDir, 'models', 'structuring-heads.json'), '{"role":');
    expect(loadHeads(dataDir, BGE_MODEL.id)).toBeNull();
    expect(configuredExtractor(db, cfg).extractor.id).toBe(offlineExtractor.id);
  });
});
