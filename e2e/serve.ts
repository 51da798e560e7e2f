import fs from 'node:fs';
import path from 'node:path';
import { startBuiltApp } from '../scripts/test-support/built-app.ts';
import { corpusPapers, jatsXml, makePdf, recipeRows, teiXml, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../scripts/test-support/fixtures.ts';
import { jatsTableXml } from '../scripts/test-support/table-fixtures.ts';
import { fixtureWorks, startFakeScholarly } from '../scripts/test-support/fake-scholarly.ts';

/**
 * Starts the built app for the browser tests on a fresh embedded database whose ASSAY_CORPUS is a folder of
 * invented papers in every format, so the first-start import runs exactly as it would for a user.
 */
const port = process.env.E2E_PORT ?? '3311';
const corpus = tempDir('assay-e2e-corpus-');
type Paragraph = { id: string | null; section: string | null; text: string };
/** An invented paper on the fixture paper's metadata, with its own id, DOI, title, domain and paragraphs. */
const invented = (id: string, doi: string, title: string, domain: string, paragraphs: Paragraph[]) => ({
  ...structuredClone(corpusPapers[1]),
  id,
  doi,
  title,
  domain,
  paragraphs,
});
const results = (...texts: string[]): Paragraph[] => texts.map((text) => ({ id: null, section: 'Results', text }));
const extra = Array.from({ length: 30 }, (_, i) => ({
  ...structuredClone(corpusPapers[1]),
  id: `zeolite-${i}`,
  doi: `10.9999/zeolite.${String(i).padStart(2, '0')}`,
  title: `Zeolite membrane study ${i + 1}`,
  year: 1990 + i,
  domain: 'membranes',
  paragraphs: [{ id: null, section: null, text: `Zeolite sample ${i + 1} adsorbed water at ${20 + i} °C.` }],
}));
// Two invented papers whose causal sentences name the same effect in two spellings, so that canonical
// clustering merges them and the graph page has a merge to show and undo.
const causal = ['Sr', 'Ba'].map((dopant, i) =>
  invented(
    `causal-${i}`,
    `10.9999/causal.${i}`,
    `${dopant} doping of ceria electrolytes`,
    'sofc',
    results(`The ${dopant} doping leads to higher grain boundary conductivit${i === 0 ? 'y' : 'ies'}.`),
  ),
);
// An invented paper with its author block and acknowledgements stored as paragraphs (as some corpora keep them):
// they name the material too, and must never be quoted as evidence.
const withFrontMatter = invented('front-matter-1', '10.9999/front.matter.1', 'Bismuth vanadate photoanodes for water oxidation', 'photoelectrochemistry', [
  {
    id: 'front-matter-1:p1',
    section: null,
    text: 'Ada Lovelace, Marie Curie, Grace Hopper and Rosalind Franklin * Department of Chemistry, University of Nowhere, Springfield 12345, Utopia E-mail: ada@nowhere.edu Received: 3 May 2020; Accepted: 9 June 2020 BiVO4 photoanode',
  },
  {
    id: 'front-matter-1:p2',
    section: 'Results',
    text: 'The BiVO4 photoanode reached a photocurrent density of 4.2 mA cm−2 at 1.23 V versus RHE under simulated sunlight.',
  },
  { id: 'front-matter-1:p3', section: 'Acknowledgements', text: 'We thank the BiVO4 photoanode consortium of Utopia for its support.' },
]);
// An invented paper whose first paragraph runs title, authors, affiliation and abstract together (as some corpora
// store it): the abstract answers, the names never show in an answer.
const runTogether = invented('run-together-1', '10.9999/run.together.1', 'Tungsten trioxide photoanodes', 'photoelectrochemistry', [
  {
    id: 'run-together-1:p1',
    section: null,
    text: 'Tungsten Trioxide Photoanodes Tungsten Trioxide Photoanodes HopperGrace1FranklinRosalind2 1Department of Physics, University of Elsewhere, Springfield 54321 grace@elsewhere.edu 4321 The WO3 photoanode reached a photocurrent density of 2.7 mA cm−2 at 1.23 V versus RHE under simulated sunlight.',
  },
]);
// Invented cathode papers for a comparative question: the best at 600 °C, a weaker one, and one whose larger value
// was measured at 800 °C on a cathode sintered at 600 °C (not an answer at 600 °C).
const cathode = (id: string, title: string, text: string) => invented(id, `10.9999/${id}`, title, 'sofc', results(text));
const comparison = [
  cathode(
    'cmp-ndsc',
    'Neodymium strontium cobaltite cathodes',
    'The cell with the Nd0.5Sr0.5CoO3 cathode delivered a peak power density of 1.05 W cm−2 at 600 °C in humidified hydrogen.',
  ),
  cathode(
    'cmp-lsf',
    'Iron-rich perovskite cathodes at low temperature',
    'The cell with the La0.6Sr0.4FeO3 cathode reached a peak power density of 0.52 W cm−2 at 600 °C in humidified hydrogen.',
  ),
  cathode(
    'cmp-ssc',
    'Sintering samarium strontium cobaltite cathodes',
    'The Sm0.5Sr0.5CoO3 cathode sintered at 600 °C gave a peak power density of 1.6 W cm−2 at 800 °C in humidified hydrogen.',
  ),
];
// An invented paper as PDF extraction leaves text: a formula split by a space, a word broken at a line end.
const pdfArtefacts = invented(
  'pdf-artefacts-1',
  '10.9999/pdf.artefacts.1',
  'Superconducting MgB 2 wires in a field',
  'superconductors',
  results('The MgB 2 wires become superconducting at 38.5 K, and the critical current shows a weak de- pendence on the applied field.'),
);
// An invented survey naming two dozen doped cerias with their conductivities: a crowded graph around one property.
const survey = invented(
  'ceria-survey-1',
  '10.9999/ceria.survey.1',
  'A survey of doped ceria electrolytes',
  'sofc',
  results(
    ...['Gd', 'Sm', 'Y', 'La', 'Nd', 'Pr'].flatMap((dopant, d) =>
      [0.05, 0.1, 0.15, 0.2].map(
        (x, i) =>
          `The Ce${Number((1 - x).toFixed(2))}${dopant}${x}O2 electrolyte reached an ionic conductivity of ${(0.01 * (d + 1) + 0.002 * i).toFixed(3)} S/cm at 600 °C.`,
      ),
    ),
  ),
);
writeCorpusJsonl(corpus, 'papers.jsonl', [...corpusPapers, ...extra, ...causal, withFrontMatter, runTogether, ...comparison, pdfArtefacts, survey], true);
writeRecordsJsonl(corpus, 'sol-gel.jsonl', recipeRows);
fs.writeFileSync(path.join(corpus, 'bzy.tei.xml'), teiXml({ doi: '10.9999/demo.tei.1' }));
fs.writeFileSync(path.join(corpus, 'niysz.xml'), jatsXml());
// A paper whose values are stated only in its tables (answered from a cell, e2e/tables.spec.ts).
fs.writeFileSync(path.join(corpus, 'cathode-tables.xml'), jatsTableXml());
fs.writeFileSync(path.join(corpus, 'ceria.pdf'), await makePdf({ doi: '10.9999/demo.pdf.5' }));
// Invented evaluation questions about the invented papers, offered on the evaluation page.
const questionsDir = tempDir('assay-e2e-questions-');
fs.writeFileSync(
  path.join(questionsDir, 'fixture-questions.jsonl'),
  [
    {
      id: 'e2e-doi-1',
      type: 'doi',
      question: 'Which paper reports a peak power density of 0.812 W cm−2 at 973 K?',
      answer_doi: '10.9999/demo.sofc.2021.001',
      answer_paper_id: 'demo-sofc-01',
      evidence: { paper_id: 'demo-sofc-01', paragraph_id: 'demo-sofc-01:p1', text: null },
      source: 'Fixture',
    },
    {
      id: 'e2e-value-1',
      type: 'value',
      question: 'In "Sol-gel synthesis of spinel LiMn2O4 for lithium-ion batteries", at what temperature was the gel formed?',
      answer_value: '80 °C',
      answer_paper_id: 'demo-battery-02',
      evidence: { paper_id: 'demo-battery-02', paragraph_id: 'demo-battery-02:p2', text: null },
      source: 'Fixture',
    },
    { id: 'e2e-none-1', type: 'unanswerable', question: 'What is the Tafel slope of CoFeMoP/NF in 1 M KOH?', source: 'Fixture' },
  ]
    .map((q) => JSON.stringify(q))
    .join('\n'),
);
const dataDir = tempDir('assay-e2e-data-');
fs.writeFileSync(path.join(dataDir, 'e2e-info.json'), JSON.stringify({ corpus }));

// Crossref, OpenAlex, Wikidata and Europe PMC as a local fake written to their documented formats (the table paper is
// retracted, the TEI paper corrected; YSZ and MgB2 have items; the searches find invented papers on Nb3Ge): the jobs
// queued after the first-start import and "look for papers" read them from here.
const scholarly = await startFakeScholarly(fixtureWorks);

const child = startBuiltApp(
  port,
  {
    ASSAY_DATA_DIR: dataDir,
    ASSAY_CORPUS: corpus,
    ASSAY_EUROPEPMC_URL: scholarly.europePmcUrl,
    ASSAY_CROSSREF_URL: scholarly.crossrefUrl,
    ASSAY_OPENALEX_URL: scholarly.openAlexUrl,
    ASSAY_WIKIDATA_URL: scholarly.wikidataUrl,
    ASSAY_MAX_UPLOAD_MB: '5',
    ASSAY_QUESTIONS: questionsDir,
    // The browser tests check what the pages show on a fixed ranking; the model's own tests are in lib/embedding,
    // and the first-start test runs the default (the model, embedding in the background).
    ASSAY_LOCAL_EMBEDDER: 'ngram',
  },
  { detached: false, stdio: 'inherit' },
);
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  void scholarly.close();
  fs.rmSync(corpus, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(questionsDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
