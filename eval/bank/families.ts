import { READER_INTENTS, type ReaderIntent } from '../../lib/retrieval/reader.ts';

/**
 * The question bank's wording families: for every intent, the same constructions a chemist uses — a plain question, a
 * first-person goal, an imperative, a keyword string, lab shorthand, a preamble before the question, a question about
 * a property of the process, British spelling, typos, a long and a short form, an indirect question, a declarative
 * with a question mark. Families differ in construction, not in synonyms, and none names a material, a paper, a
 * method or a property: those are slots, filled from the corpus and the records when the bank is generated
 * (generate.ts). A reader is measured on a family it was not fitted or written with (leave-one-family-out).
 *
 * Slots: {m} a material, {m2} a second material, {meth} a synthesis method as written, {p} a property, {c} a
 * condition, {val} a value with its unit, {t} a paper's title, {v} a processing verb ("calcined"), {s} an out-of-scope subject and {a} what is
 * asked of it. A family may leave an intent out (its construction does not ask it): every intent keeps twelve.
 */

/** The intents the bank asks in, as the reader names them. */
export const INTENTS = READER_INTENTS;
export type Intent = ReaderIntent;

/** What a synthesis question asks of the recipes. */
export type SynthesisAspect = 'recipe' | 'precursors' | 'heat-treatment' | 'atmosphere' | 'steps';

export interface Template {
  text: string;
  /** Synthesis: which part of the recipe is asked. */
  aspect?: SynthesisAspect;
}

export interface Family {
  name: string;
  /** One line for the table's legend. */
  describe: string;
  templates: Partial<Record<Intent, Template[]>>;
}

const t = (...texts: string[]): Template[] => texts.map((text) => ({ text }));
const s = (aspect: SynthesisAspect, text: string): Template => ({ text, aspect });

export const FAMILIES: Family[] = [
  {
    name: 'plain',
    describe: 'a plain wh-question',
    templates: {
      value: t('What is the {p} of {m}?', 'What {p} does {m} reach at {c}?', 'How high is the {p} of {m}?', 'How large is the {p} reported for {m}?'),
      synthesis: [
        s('recipe', 'How is {m} synthesized by {meth}?'),
        s('precursors', 'Which precursors are used to make {m} by {meth}?'),
        s('heat-treatment', 'What calcination temperature is used for {m} made by {meth}?'),
        s('atmosphere', 'Under which atmosphere is {m} fired when it is made by {meth}?'),
        s('recipe', 'How is {m} made?'),
      ],
      comparison: t('Which has the higher {p}, {m} or {m2}?', 'Is the {p} of {m} higher than that of {m2}?', 'Does {m} or {m2} have the lower {p}?'),
      'which-paper': t(
        'Which paper reports the {p} of {m}?',
        'Which study measured the {p} of {m} at {c}?',
        'Which article gives the {p} of {m}?',
        'What is the DOI of the paper that reports the {p} of {m}?',
        'Which paper reports a {p} of {val} for {m}?',
      ),
      'paper-list': t('Which papers report the {p} of {m}?', 'What studies have measured the {p} of {m}?', 'Which articles give the {p} of {m}?'),
      descriptive: t(
        'What limits the {p} of {m}?',
        'Why does the {p} of {m} change with temperature?',
        'What affects the {p} of {m}?',
        'How does doping change the {p} of {m}?',
      ),
      'out-of-scope': t('What is the {a} of {s}?', 'How large is the {a} of {s}?'),
    },
  },
  {
    name: 'first-person',
    describe: 'a goal in the first person, then the question',
    templates: {
      value: t(
        'I need the {p} of {m} for a model. What value should I use?',
        "I'm choosing a material and want to know the {p} of {m}. What is it?",
        'I need a number for the {p} of {m} at {c}. Can you give one?',
      ),
      synthesis: [
        s('precursors', 'I want to make {m} by {meth}. Which reagents should I start from?'),
        s('recipe', "I'm planning to prepare {m} using {meth}; how should I do it?"),
        s('heat-treatment', 'I need to fire {m} made by {meth}. What temperature and time should I use?'),
        s('steps', 'I have to synthesise {m} via {meth} next week. What are the steps?'),
        s('recipe', 'I want to make some {m}. Where do I start?'),
      ],
      comparison: t(
        'I have to pick between {m} and {m2} for their {p}. Which one is better?',
        "I'm comparing {m} with {m2}: which shows the larger {p}?",
        'I need to know if {m} beats {m2} in {p}.',
      ),
      'which-paper': t(
        'I remember a paper on the {p} of {m}. Which one was it?',
        'I need to cite the study that measured the {p} of {m}. Which is it?',
        'I need the reference for the {p} of {m} that I saw last year. Which paper is it?',
        'I recall a study where {m} reached a {p} of about {val}. Can you point me to it?',
      ),
      'paper-list': t(
        "I'm writing a review on the {p} of {m}. Which papers should I read?",
        'I want every study that reports the {p} of {m}. Which are they?',
        'I need all the references on the {p} of {m} for my thesis. Which are they?',
      ),
      descriptive: t(
        "I'm trying to understand what controls the {p} of {m}. What does?",
        'I want to know why {m} loses {p} over time. What causes it?',
        'I keep getting a poor {p} for {m}. What could be the reason?',
      ),
      'out-of-scope': t("I'm curious about {s}. What is its {a}?", 'I want to know the {a} of {s}. What is it?'),
    },
  },
  {
    name: 'imperative',
    describe: 'a request in the imperative',
    templates: {
      value: t('Give me the {p} of {m}.', 'Tell me the {p} of {m} at {c}.', 'Report the {p} measured for {m}.', 'State the {p} of {m} at {c}.'),
      synthesis: [
        s('steps', 'Give me the steps to prepare {m} using {meth}.'),
        s('precursors', 'List the starting chemicals for {m} made by {meth}.'),
        s('recipe', 'Describe a recipe for {m} by {meth}.'),
        s('heat-treatment', 'Tell me the sintering conditions for {m} prepared by {meth}.'),
        s('recipe', 'Give me a recipe for {m}.'),
      ],
      comparison: t('Compare the {p} of {m} and {m2}.', 'Tell me whether {m} or {m2} has the higher {p}.', 'Rank {m} and {m2} by {p}.'),
      'which-paper': t(
        'Find the paper that reports the {p} of {m}.',
        'Name the study where the {p} of {m} was measured at {c}.',
        'Point me to the article that measured the {p} of {m}.',
      ),
      'paper-list': t(
        'List the papers that report the {p} of {m}.',
        'Show me all studies on the {p} of {m}.',
        'Collect every article that measured the {p} of {m}.',
      ),
      descriptive: t(
        'Explain what limits the {p} of {m}.',
        'Describe how the {p} of {m} depends on its microstructure.',
        'Summarise what is known about why the {p} of {m} varies.',
      ),
      'out-of-scope': t('Tell me the {a} of {s}.', 'Give me the {a} of {s}.'),
    },
  },
  {
    name: 'keywords',
    describe: 'a keyword string, no sentence',
    templates: {
      value: t('{m} {p}', '{p} {m} {c}', '{m} {p} value', '{m} {p} at {c}'),
      synthesis: [
        s('recipe', '{m} {meth} synthesis conditions'),
        s('precursors', '{m} {meth} precursors'),
        s('heat-treatment', '{m} {meth} calcination temperature time'),
        s('atmosphere', '{m} {meth} annealing atmosphere'),
        s('recipe', '{m} synthesis route'),
      ],
      comparison: t('{m} vs {m2} {p}', '{p} {m} versus {m2}', '{m} {m2} {p} comparison'),
      'which-paper': t('paper {p} {m}', '{m} {p} reference', '{m} {p} source article', 'doi {m} {p} paper', '{m} {p} {val} {c}'),
      'paper-list': t('papers {p} {m}', 'all studies {m} {p}', '{m} {p} literature list'),
      descriptive: t('{m} {p} limiting factors', '{m} {p} mechanism', '{m} {p} origin explanation'),
      'out-of-scope': t('{s} {a}', '{a} of {s}'),
    },
  },
  {
    name: 'shorthand',
    describe: 'lab shorthand: abbreviations, symbols, colons',
    templates: {
      value: t('{m}: {p} @ {c}?', '{p} for {m}? (approx.)', '{m} — typical {p}?', '{m} {p} = ? (@ {c})'),
      synthesis: [
        s('heat-treatment', '{m} via {meth}: calc. T + t?'),
        s('precursors', '{m} ({meth}) — precursors?'),
        s('steps', '{m} by {meth}, procedure pls'),
        s('atmosphere', '{m} / {meth}: firing atm?'),
        s('recipe', '{m} prep: precursors + firing?'),
      ],
      comparison: t('{m} vs {m2}: which has higher {p}?', '{p}: {m} > {m2}?', '{p}: {m} or {m2}, which wins?'),
      'which-paper': t('ref for {p} of {m}?', 'src: {m} {p} @ {c}?', '{m} {p} — which ref?', '{m} {val} @ {c} — ref?'),
      'paper-list': t('refs on {m} {p}?', 'papers w/ {m} {p}?', '{m} {p}: list of refs?'),
      descriptive: t('{m} {p}: what limits it?', 'why {m} {p} drops w/ T?', '{m}: {p} low, why?'),
      'out-of-scope': t('{s}: {a}?', '{a} of {s}?'),
    },
  },
  {
    name: 'preamble',
    describe: 'a sentence of context before the question',
    templates: {
      value: t(
        'We are screening materials for a device. What is the {p} of {m}?',
        'For a project on energy materials: how large is the {p} of {m} at {c}?',
        'Quick check before a meeting: what {p} does {m} have?',
      ),
      synthesis: [
        s('heat-treatment', 'Our group makes oxides in a box furnace. What heat treatment (temperature and time) is reported for {m} prepared by {meth}?'),
        s('precursors', 'We have a glovebox and common salts. Which starting compounds does {meth} of {m} need?'),
        s('recipe', 'My supervisor asked me to make a batch of {m}. How is it made by {meth}?'),
        s('recipe', 'We need a few grams for testing. How do people usually prepare {m}?'),
      ],
      comparison: t(
        'We are choosing a material for a prototype. Between {m} and {m2}, which has the higher {p}?',
        'For our report: does {m} beat {m2} in {p}?',
        'Our budget allows one material. Is the {p} of {m} above that of {m2}?',
      ),
      'which-paper': t(
        'A reviewer asked for a reference. Which paper gives the {p} of {m}?',
        'For the introduction of my thesis: which study reports the {p} of {m}?',
        'I am writing the methods section. Which paper first reported the {p} of {m}?',
        'I lost a reference in my notes. What is the DOI of the paper that describes the {p} of {m} at {c}?',
      ),
      'paper-list': t(
        'I am starting a literature survey. Which papers discuss the {p} of {m}?',
        'For a group meeting: what studies report the {p} of {m}?',
        'I am building a table for a review. Which studies report the {p} of {m}?',
      ),
      descriptive: t(
        'Our samples underperform. What limits the {p} of {m}?',
        'For a lecture on materials: why is the {p} of {m} so sensitive to processing?',
        'We saw unexpected results last week. Why would the {p} of {m} fall after annealing?',
      ),
      'out-of-scope': t('For a pub quiz tonight: what is the {a} of {s}?', 'My kid asked me this. What is the {a} of {s}?'),
    },
  },
  {
    name: 'process-property',
    describe: 'a question about a property of the process or measurement',
    templates: {
      value: t(
        'At what temperature was the {p} of {m} measured?',
        'Under what conditions does {m} show its {p}?',
        'With what method was the {p} of {m} obtained, and what was it?',
      ),
      synthesis: [
        s('heat-treatment', 'How long is {m} calcined when it is prepared by {meth}?'),
        s('heat-treatment', 'How hot does the furnace need to be to form {m} by {meth}?'),
        s('atmosphere', 'What gas is used while firing {m} made by {meth}?'),
        s('steps', 'How many heating steps does the {meth} route to {m} take?'),
        s('recipe', 'At what temperature is {m} usually calcined?'),
      ],
      comparison: t(
        'At {c}, is the {p} of {m} or of {m2} larger?',
        'Measured the same way, which is higher in {p}: {m} or {m2}?',
        'Measured at {c}, how does {m} compare with {m2} in {p}?',
      ),
      'which-paper': t(
        'In which paper was the {p} of {m} measured at {c}?',
        'Where was the {p} of {m} first reported?',
        'Which paper describes the measurement of the {p} of {m}?',
      ),
      'paper-list': t(
        'In which papers was the {p} of {m} measured?',
        'Where has the {p} of {m} been reported?',
        'Which papers describe how the {p} of {m} was measured?',
      ),
      descriptive: t(
        'How does the measurement temperature change the {p} of {m}?',
        'How does processing affect the {p} of {m}?',
        'How does grain size influence the {p} of {m}?',
      ),
      'out-of-scope': t('How was the {a} of {s} first measured?', 'When was the {a} of {s} determined?'),
    },
  },
  {
    name: 'british',
    describe: 'British spelling throughout',
    templates: {
      value: t(
        'What is the {p} of {m}, as characterised in the literature?',
        'What {p} has been recorded for {m} at {c}, to the nearest whole number?',
        'What is the {p} of {m} in the standardised units?',
      ),
      synthesis: [
        s('recipe', 'How is {m} synthesised through {meth}?'),
        s('precursors', 'Which precursors are used to synthesise {m} by {meth}?'),
        s('heat-treatment', 'What calcination programme is used to crystallise {m} made by {meth}?'),
        s('atmosphere', 'In which atmosphere is {m} annealed after {meth}, and does the colour change?'),
        s('recipe', 'How is {m} normally synthesised?'),
      ],
      comparison: t('Which behaves better in {p}: {m} or {m2}?', 'Is {m} favoured over {m2} for its {p}?', 'Which has the more favourable {p}, {m} or {m2}?'),
      'which-paper': t(
        'Which paper characterised the {p} of {m}?',
        'Which study analysed the {p} of {m}?',
        'Which publication catalogued the {p} of {m}?',
        'What is the DOI of the paper that characterises the {p} of {m}?',
      ),
      'paper-list': t(
        'Which papers have characterised the {p} of {m}?',
        'Which studies analyse the {p} of {m}?',
        'Which publications have catalogued the {p} of {m}?',
      ),
      descriptive: t(
        'What governs the behaviour of the {p} of {m}?',
        'Why is the {p} of {m} optimised by doping?',
        'What is the origin of the favourable {p} of {m}?',
      ),
      'out-of-scope': t('What is the {a} of {s}, in metres or whichever unit suits?', 'Whereabouts does the {a} of {s} stand, roughly?'),
    },
  },
  {
    name: 'typos',
    describe: 'a plain question typed in a hurry (letters swapped or dropped outside the names)',
    templates: {
      value: t('waht is the {p} of {m}', 'whats the {p} of {m} at {c}', 'how hihg is the {p} of {m}'),
      synthesis: [
        s('recipe', 'how do u make {m} by {meth}'),
        s('precursors', 'wich precursers are used for {m} by {meth}'),
        s('heat-treatment', 'what calcinaton temprature for {m} made by {meth}'),
        s('steps', 'steps to prepair {m} using {meth}'),
        s('recipe', 'how to mkae {m}'),
      ],
      comparison: t('which has higer {p}, {m} or {m2}', 'is {m} beter than {m2} in {p}', '{m} or {m2} wich has more {p}'),
      'which-paper': t(
        'wich paper reports the {p} of {m}',
        'which study mesured {p} of {m}',
        'wich artcle gives the {p} of {m}',
        'which papr reprots {val} {p} for {m}',
      ),
      'paper-list': t('wich papers report {p} of {m}', 'what studys measure {p} of {m}', 'all paprs on {p} of {m}'),
      descriptive: t('what limts the {p} of {m}', 'why dose {m} loose {p}', 'why is {p} of {m} so lwo'),
      'out-of-scope': t('waht is the {a} of {s}', 'whats the {a} of {s}'),
    },
  },
  {
    name: 'long',
    describe: 'a long question with clauses and hedges',
    templates: {
      value: t(
        'Could you tell me, based on the measurements reported in the literature and assuming standard conditions, what the {p} of {m} typically is?',
        'Taking into account that values differ between groups and samples, what {p} is usually reported for {m} when it is measured at {c}?',
        'For a design calculation that depends on it quite strongly, what is the best available figure for the {p} of {m} near {c}?',
      ),
      synthesis: [
        s(
          'recipe',
          'Assuming a standard laboratory with a tube furnace and common reagents, how would one go about preparing {m} by {meth}, from the first weighing to the final firing?',
        ),
        s(
          'precursors',
          'Before ordering chemicals for a batch of {m} made by {meth}, I would like to know which starting compounds are normally used and in what form.',
        ),
        s(
          'heat-treatment',
          'When {m} is prepared by {meth}, which heat treatment — temperature, dwell time and number of firings — is typically reported to give a phase-pure product?',
        ),
        s('recipe', 'If I wanted to produce a phase-pure powder of {m} in an ordinary lab, which route and conditions would the literature suggest?'),
      ],
      comparison: t(
        'If one had to choose between {m} and {m2} purely on the basis of their {p}, leaving cost and stability aside, which of the two would come out ahead?',
        'Considering the values reported under comparable conditions, does {m} or {m2} show the greater {p}, and by how much?',
        'When both are measured under the same conditions, which of {m} and {m2} turns out to have the higher {p}?',
      ),
      'which-paper': t(
        'There was a study, I believe fairly recent, that measured the {p} of {m} carefully; could you point me to which paper that was?',
        'Among the work on {m}, which particular paper is the one that reports its {p} measured at {c}?',
        'I read about the {p} of {m} some time ago but lost the reference; which publication reported it, if you can find it?',
        'What is the DOI of the paper that investigates how the composition of {m} affects its {p}, comparing several samples and conditions?',
      ),
      'paper-list': t(
        'Could you give me a list of the papers, as complete as possible, that report measurements of the {p} of {m}?',
        'For a thorough comparison I need every study that has reported the {p} of {m}; which papers are those?',
        'To avoid missing anything in my literature review, which publications have measured or discussed the {p} of {m}?',
      ),
      descriptive: t(
        'From a mechanistic point of view, and considering defects, grain boundaries and composition, what ultimately limits the {p} of {m}?',
        'Could you explain in some detail why the {p} of {m} changes so much between samples prepared in different ways?',
        'What are the main physical or chemical factors, according to the literature, that determine the {p} of {m}?',
      ),
      'out-of-scope': t(
        'Out of general curiosity and not for any research purpose, could you tell me what the {a} of {s} actually is?',
        'Setting materials aside for a moment, I have always wondered: what is the {a} of {s}?',
      ),
    },
  },
  {
    name: 'short',
    describe: 'a terse question of a few words',
    templates: {
      value: t('{m} {p}?', '{p} of {m}?', '{m}: {p}?'),
      synthesis: [
        s('recipe', 'Making {m} by {meth}?'),
        s('precursors', '{m} {meth} reagents?'),
        s('heat-treatment', '{m} {meth} firing?'),
        s('recipe', '{m} recipe?'),
      ],
      comparison: t('{m} or {m2}, {p}?', '{m} vs {m2}?', '{m} > {m2} in {p}?'),
      'which-paper': t('Source for {m} {p}?', 'Who measured {m} {p}?', 'Paper for {m} {p}?', '{m} at {val}?'),
      'paper-list': t('Papers on {m} {p}?', 'Studies of {m} {p}?', 'All papers, {m} {p}?'),
      descriptive: t('Why {m} {p}?', '{m} {p} limits?', 'What limits {m} {p}?'),
      'out-of-scope': t('{s} {a}?', '{a}, {s}?'),
    },
  },
  {
    name: 'indirect',
    describe: 'an indirect question ("do you know …", "I wonder …")',
    templates: {
      value: t('Do you know the {p} of {m}?', 'I wonder what {p} {m} reaches at {c}.', 'Could you tell me the {p} of {m}?'),
      synthesis: [
        s('recipe', 'Do you know how {m} can be made by {meth}?'),
        s('precursors', 'I wonder which chemicals one starts from to get {m} by {meth}.'),
        s('heat-treatment', 'Can you tell me how long and how hot {m} is fired in {meth}?'),
        s('atmosphere', 'Do you happen to know whether {m} from {meth} is calcined in air or in a reducing gas?'),
        s('recipe', 'Do you know what {m} is made from?'),
      ],
      comparison: t(
        'Do you know whether {m} or {m2} has the higher {p}?',
        'I wonder if {m} outperforms {m2} in {p}.',
        'Could you tell me which is higher in {p}, {m} or {m2}?',
      ),
      'which-paper': t(
        'Do you know which paper reported the {p} of {m}?',
        'I wonder which study measured the {p} of {m}.',
        'Could you tell me which article reports the {p} of {m}?',
        'Could you find the DOI of the study that examined the {p} of {m}?',
      ),
      'paper-list': t(
        'Do you know which papers report the {p} of {m}?',
        'I wonder what studies exist on the {p} of {m}.',
        'Could you tell me which articles report the {p} of {m}?',
      ),
      descriptive: t('Do you know what limits the {p} of {m}?', 'I wonder why the {p} of {m} is so low.', 'Could you tell me what determines the {p} of {m}?'),
      'out-of-scope': t('Do you know the {a} of {s}?', 'I wonder what the {a} of {s} is.'),
    },
  },
  {
    name: 'declarative',
    describe: 'a statement with the unknown in it, ending in a question mark',
    templates: {
      value: t('The {p} of {m} is how much?', '{m} has a {p} of what, at {c}?', 'The {p} reported for {m} at {c} is?'),
      synthesis: [
        s('precursors', '{m} by {meth} is made from which reagents?'),
        s('heat-treatment', '{m} via {meth} gets calcined at what temperature and for how long?'),
        s('steps', 'The {meth} preparation of {m} goes through which steps?'),
        s('atmosphere', '{m} by {meth} is fired in which gas?'),
        s('recipe', '{m} is made from what?'),
      ],
      comparison: t('{m} has a higher {p} than {m2}, true?', 'The better {p} belongs to {m} or {m2}?', 'Between {m} and {m2}, the higher {p} is found in?'),
      'which-paper': t(
        'The {p} of {m} was reported in which paper?',
        'The study measuring {m} {p} at {c} is which one?',
        'The {p} of {m} comes from which article?',
        'A {p} of {val} for {m} was reported where?',
      ),
      'paper-list': t(
        'The {p} of {m} has been reported in which papers?',
        'Studies reporting {m} {p} are which?',
        'The articles reporting the {p} of {m} are?',
      ),
      descriptive: t('The {p} of {m} is limited by what?', 'The drop in {p} of {m} comes from what?', 'The {p} of {m} depends on what?'),
      'out-of-scope': t('The {a} of {s} is what?', '{s} has a {a} of how much?'),
    },
  },
  {
    name: 'titled',
    describe: 'the question quotes the title of the paper it is about',
    templates: {
      value: t('In “{t}”, what is the {p} of {m}?', 'In “{t}”, for how long was the material {v}?', 'In “{t}”, at what temperature was the material {v}?'),
      synthesis: [s('recipe', 'In “{t}”, how was {m} prepared?'), s('precursors', 'Which precursors does “{t}” use for {m}?')],
      'which-paper': t('Is “{t}” the paper that reports the {p} of {m}?'),
      descriptive: t('In “{t}”, why does the {p} of {m} change?', 'According to “{t}”, what limits the {p} of {m}?'),
    },
  },
  {
    name: 'anaphoric',
    describe: 'the subject referred to as "the sample", "the material", "the films", not named',
    templates: {
      value: t('For how long was the sample {v}?', 'At what temperature were the films {v}?', 'What {p} did the material reach at {c}?'),
      'which-paper': t('Which paper reports a {p} of the films at {c}?', 'Which study made the samples whose {p} was measured at {c}?'),
      'paper-list': t('Which papers report the {p} of such films?', 'What studies measured the {p} of these samples?'),
      descriptive: t('Why did the {p} of the films drop after annealing?', 'What limits the {p} of the sample?'),
    },
  },
];
