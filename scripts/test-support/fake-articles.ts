/**
 * Invented open-access articles (not from any paper) for "look for papers": what the fake OpenAlex and Europe PMC
 * search (scripts/test-support/fake-scholarly.ts) find, with the JATS full text the fake Europe PMC serves for those with a PMC
 * id. One answers a question the e2e corpus cannot (Nb3Ge's critical temperature) and states, as a scan
 * garbles it, a compound that cannot exist (an OCR-style "Nb3Gc": Gc is no element) and a temperature in a current
 * density's unit; one is under a licence that forbids derivatives; one has no full text in Europe PMC.
 */
export interface FakeArticle {
  pmcid: string | null;
  doi: string;
  title: string;
  abstract: string;
  authors: string[];
  journal: string;
  year: number;
  /** As Europe PMC writes it ("cc by", "cc by-nc-nd"); null: none stated. */
  licence: string | null;
  /** Which services know it. */
  in: ('openalex' | 'europepmc')[];
  /** JATS `<body>` content, for the full text. */
  body?: string;
}

export const fixtureArticles: FakeArticle[] = [
  {
    pmcid: 'PMC9900001',
    doi: '10.9999/found.nb3ge.2021.001',
    title: 'Critical temperature of sputtered Nb3Ge thin films',
    abstract: 'Nb3Ge thin films were grown by magnetron sputtering on heated sapphire; their critical temperature was measured resistively.',
    authors: ['Lise Meitner', 'Chien-Shiung Wu'],
    journal: 'Invented Journal of Thin Films',
    year: 2021,
    licence: 'cc by',
    in: ['openalex', 'europepmc'],
    body: `<sec><title>Results</title>
      <p>The Nb3Ge films reached a critical temperature of 22.3 K when grown at 850 °C.</p>
      <p>The Nb3Gc films reached a critical temperature of 18.5 K.</p>
      <p>The films reached a critical temperature of 2.1 mA cm−2.</p>
      <table-wrap id="t1"><label>Table 1</label><caption><p>Films and their transition temperatures.</p></caption>
        <table>
          <thead><tr><th>Film</th><th>Growth temperature (°C)</th><th>Tc (K)</th></tr></thead>
          <tbody>
            <tr><td>Nb3Ge</td><td>850</td><td>22.3</td></tr>
          </tbody>
        </table>
      </table-wrap>
    </sec>`,
  },
  {
    pmcid: 'PMC9900002',
    doi: '10.9999/found.nb3ge.2019.002',
    title: 'Nb3Ge wires for superconducting magnets',
    abstract: 'Multifilamentary Nb3Ge wires keep a high critical temperature after drawing.',
    authors: ['Emmy Noether'],
    journal: 'Invented Magnet Technology',
    year: 2019,
    licence: 'cc by-nc-nd',
    in: ['europepmc'],
    body: '<sec><title>Results</title><p>The Nb3Ge wires reached a critical temperature of 21.0 K.</p></sec>',
  },
  {
    pmcid: null,
    doi: '10.9999/found.a15.2015.003',
    title: 'A15 superconductors revisited: Nb3Ge and Nb3Sn',
    abstract: 'A review of the A15 compounds and their critical temperature.',
    authors: ['Kamerlingh Onnes'],
    journal: 'Invented Reviews of Superconductivity',
    year: 2015,
    licence: 'cc by',
    in: ['openalex'],
  },
];

/** The JATS article Europe PMC's `/{PMCID}/fullTextXML` serves for `a`. */
export function articleJats(a: FakeArticle): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">
  <front>
    <journal-meta><journal-title-group><journal-title>${a.journal}</journal-title></journal-title-group></journal-meta>
    <article-meta>
      <article-id pub-id-type="pmcid">${a.pmcid}</article-id>
      <article-id pub-id-type="doi">${a.doi}</article-id>
      <title-group><article-title>${a.title}</article-title></title-group>
      <contrib-group>${a.authors
        .map((n) => {
          const [given, ...family] = n.split(' ');
          return `<contrib contrib-type="author"><name><surname>${family.join(' ')}</surname><given-names>${given}</given-names></name></contrib>`;
        })
        .join('')}</contrib-group>
      <pub-date pub-type="epub"><year>${a.year}</year></pub-date>
      ${a.licence ? `<permissions><license license-type="${a.licence}"><license-p>${a.licence.toUpperCase()}</license-p></license></permissions>` : ''}
      <abstract><p>${a.abstract}</p></abstract>
    </article-meta>
  </front>
  <body>${a.body ?? ''}</body>
</article>
`;
}
