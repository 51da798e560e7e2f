import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuestion } from '../answer/answer.ts';
import { provenanceDetails } from '../answer/provenance.ts';
import { answerText } from '../answer/types.ts';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { paragraphIdsOf, provenanceOf } from '../evidence/model.ts';
import { runIngest } from '../jobs/import-job.ts';
import { createRetrievalService } from '../serving/retrieval-service.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { corpusPapers, tempDir, writeCorpusJsonl } from '../../scripts/test-support/fixtures.ts';
import { jatsTableXml, teiTableXml } from '../../scripts/test-support/table-fixtures.ts';

/**
 * Tables end to end: a JATS and a TEI paper whose values are stated only in table cells are imported, structured and
 * indexed; a value question is answered from the cell, citing the table row's paragraph.
 */
let db: Database;
const cfg = readConfig({ ASSAY_DATA_DIR: tempDir(), ASSAY_LOCAL_EMBEDDER: 'ngram' });
beforeAll(async () => {
  db = await openTestDatabase();
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'cathodes.xml'), jatsTableXml());
  fs.writeFileSync(path.join(dir, 'superconductors.tei.xml'), teiTableXml());
  // Prose papers beside them, one stating an area-specific resistance in words.
  writeCorpusJsonl(dir, 'prose.jsonl', corpusPapers);
  await runIngest(db, cfg, [dir], { trigger: 'cli' });
});
afterAll(async () => {
  await db?.close();
});

describe('tables as evidence', () => {
  it('are stored with their paper, one paragraph per row with its quantities found', async () => {
    const paper = await db.prisma.paper.findFirstOrThrow({
      where: { doi: '10.9999/demo.tables.2024.001' },
      include: { paragraphs: { orderBy: { ordinal: 'asc' } } },
    });
    expect((paper.meta as { tables: unknown[] }).tables).toHaveLength(2);
    const rows = paper.paragraphs.filter((p) => p.kind === 'table');
    expect(rows.map((r) => r.externalId)).toEqual(['table:tab1#r1', 'table:tab1#r2', 'table:tab1#r3', 'table:tab1#r4', 'table:tab2#r1', 'table:tab2#r2']);
    const quantities = await db.prisma.mention.findMany({ where: { paragraphId: rows[2].id, kind: 'quantity' }, orderBy: { start: 'asc' } });
    expect(quantities.map((q) => q.text)).toEqual(expect.arrayContaining(['1000 °C', '597 mW cm−2', '911 mW cm−2']));
  });

  it('give graph tuples read from the grid, each cited to its cell', async () => {
    const row = await db.prisma.paragraph.findFirstOrThrow({ where: { externalId: 'table:tab1#r3' } });
    const tuples = await db.prisma.graphTuple.findMany({ where: { paragraphId: row.id }, include: { subject: true, object: true } });
    const read = tuples.map((t) => `${t.subject.label} ${t.relation} ${t.object.label} = ${t.value} ${t.unit} ${t.referenceNode ?? ''}`.trim());
    expect(read).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Sm0\.5Sr0\.5CoO3 has_property .* = 597 mW\/cm\^2 650 °C$/),
        expect.stringMatching(/^Sm0\.5Sr0\.5CoO3 has_property .* = 911 mW\/cm\^2 750 °C$/),
        expect.stringMatching(/^Sm0\.5Sr0\.5CoO3 processed_at .* Sintering$/),
      ]),
    );
    for (const t of tuples) expect(row.text.slice(t.start!, t.end!)).toBe(t.sentence);
    const tcRow = await db.prisma.paragraph.findFirstOrThrow({ where: { externalId: 'table:tab_0#r2' } });
    const tc = await db.prisma.graphTuple.findMany({ where: { paragraphId: tcRow.id }, include: { subject: true } });
    expect(tc.map((t) => `${t.subject.label}:${t.value}${t.unit}`)).toEqual(expect.arrayContaining(['Mo3Al2C:9.1K']));
  });

  it('answer a value question from a cell, citing the row', async () => {
    const service = createRetrievalService(db, cfg);
    const index = await service.index();
    const answer = await answerQuestion(index, 'What peak power density at 750 °C did the Sm0.5Sr0.5CoO3 cathode reach?');
    expect(answer.abstention.abstain, answer.abstention.explanation).toBe(false);
    expect(answer.shape).toBe('value');
    expect(answerText(answer)).toContain('911 mW cm−2');
    const row = await db.prisma.paragraph.findFirstOrThrow({ where: { externalId: 'table:tab1#r3' } });
    expect(answer.evidence.flatMap((e) => paragraphIdsOf(e))).toContain(row.id);
    // Cited to the cell: the answer names it, and the item carries it for the provenance panel.
    expect(answerText(answer)).toMatch(
      /Table 1 of .*in the row “Cathode: Sm0\.5Sr0\.5CoO3”, column “Peak power density at 750 °C”, gives 911 mW cm−2 \(cell table:tab1#r3c5\)/,
    );
    const cited = answer.evidence.find((e) => paragraphIdsOf(e).includes(row.id))!;
    expect(provenanceOf(cited, 'cell')).toEqual([
      expect.objectContaining({ address: 'table:tab1#r3c5', table: 'Table 1', column: 'Peak power density at 750 °C', paragraphId: row.id }),
    ]);
    // The provenance panel draws the table with the row and the cell marked, from the address or the cited span.
    const byAddress = await provenanceDetails(db, { paragraphId: row.id, cell: 'table:tab1#r3c5' });
    expect(byAddress.paragraph?.table).toMatchObject({ id: 'tab1', label: 'Table 1', row: 2, column: 4, address: 'table:tab1#r3c5' });
    expect(byAddress.paragraph?.table?.columns[4]).toBe('Peak power density (mW cm−2) 750 °C');
    expect(byAddress.paragraph?.table?.rows[2][4]).toBe('911');
    const cellSpan = provenanceOf(cited, 'cell')[0];
    const bySpan = await provenanceDetails(db, { paragraphId: row.id, sentence: { start: cellSpan.start, end: cellSpan.end } });
    expect(bySpan.paragraph?.table?.address).toBe('table:tab1#r3c5');
    // A cell of another row, or beyond the columns, marks no cell; a prose paragraph has no table.
    expect((await provenanceDetails(db, { paragraphId: row.id, cell: 'table:tab1#r1c5' })).paragraph?.table?.column).toBeNull();
    expect((await provenanceDetails(db, { paragraphId: row.id, cell: 'table:tab1#r3c9' })).paragraph?.table?.column).toBeNull();
    const prose = await db.prisma.paragraph.findFirstOrThrow({ where: { kind: 'body', paper: { doi: '10.9999/demo.tables.2024.001' } } });
    expect((await provenanceDetails(db, { paragraphId: prose.id })).paragraph?.table).toBeNull();
    // A header abbreviates its property ("ASR"): a question writing it out still reaches the row, not a prose
    // paper that writes the words for another material.
    const asr = await service.retrieve('What is the area-specific resistance of La0.7Sr0.3MnO3?', 'hybrid');
    expect(asr.papers[0].title).toBe('Cobaltite and ferrite cathodes compared in anode-supported cells');
    expect(asr.value?.text).toBe('0.640 Ω cm2');
    expect(asr.abstention.abstain).toBe(false);
    const tc = await answerQuestion(index, 'What is the superconducting transition temperature Tc of Mo3Al2C?');
    expect(answerText(tc)).toContain('9.1 K');
  });
});
