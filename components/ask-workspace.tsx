'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import type { ExampleQuestion } from '@/lib/answer/examples';
import type { AskFilters } from '@/lib/answer/service';
import { labelsById } from '@/lib/answer/pool';
import type { AnswerStreamData } from '@/lib/answer/stream';
import { AskFiltersFields, activeFilters, type FilterChoices } from './ask-filters';
import { AnswerView, ClaimLine } from './answer-view';
import { offersPaperSearch } from '@/lib/answer/types';
import { AnswerModeOptions, type PipelineChoice, PipelineHint, PipelineOptions } from './pipeline-options';

/** A failed request's message: the route's `{error}` body when it sent one, else what the transport said. */
function errorText(error: Error): string {
  try {
    const body = JSON.parse(error.message) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not a JSON body: the message is the transport's own
  }
  return error.message;
}

/** What "compare" starts with: the answer's default beside the graph and the vector baseline. */
const DEFAULT_COMPARED = ['hybrid', 'graph', 'vector'];

/** The answer route's messages (lib/answer/stream.ts): sources, text, checked sentences, the stored answer. */
type AskMessage = UIMessage<never, AnswerStreamData>;

interface Settings {
  /** A pipeline's name, or `compare` to ask two or three side by side. */
  pipeline: string;
  mode: string;
  filters: AskFilters;
  /** The pipelines compared when `pipeline` is `compare`. */
  compared: string[];
}

/** The compare screen's URL for a question: shareable, and what the history reopens. */
export function compareHref(question: string, pipelines: string[], mode: string, filters: AskFilters): string {
  const u = new URLSearchParams({ q: question });
  for (const p of pipelines) u.append('p', p);
  if (mode !== 'auto') u.set('mode', mode);
  for (const [k, v] of Object.entries(activeFilters(filters))) u.set(k, v!);
  return `/compare?${u}`;
}

/**
 * The ask screen: a question goes in, the evidence arrives first (as the stream's source parts), then the answer's
 * text as it is written, then the stored answer with its citations and verdicts. One question at a time; every
 * answer is kept and opens at its own URL. Enter asks, Shift+Enter starts a new line.
 */
export function AskWorkspace({
  pipelines,
  defaultPipeline,
  modelId,
  examples,
  choices,
}: {
  pipelines: PipelineChoice[];
  defaultPipeline: string;
  modelId: string | null;
  examples: ExampleQuestion[];
  choices: FilterChoices;
}) {
  const router = useRouter();
  const [question, setQuestion] = useState('');
  const [settings, setSettings] = useState<Settings>({
    pipeline: defaultPipeline,
    mode: 'auto',
    filters: {},
    compared: [defaultPipeline, ...DEFAULT_COMPARED.filter((p) => p !== defaultPipeline)].slice(0, 3),
  });
  const comparing = settings.pipeline === 'compare';
  // The transport is created once; it reads the settings of the moment a question is sent.
  const current = useRef(settings);
  current.current = settings;
  const asked = useRef<{ text: string; at: number } | null>(null);
  const [firstEvidenceMs, setFirstEvidenceMs] = useState<number | null>(null);
  const [transport] = useState(
    () =>
      new DefaultChatTransport<AskMessage>({
        api: '/api/answer',
        prepareSendMessagesRequest: ({ messages }) => {
          const last = messages.at(-1);
          const text = last?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
          const { pipeline, mode, filters } = current.current;
          const scoped = activeFilters(filters);
          return { body: { question: text, pipeline, mode, ...(Object.keys(scoped).length ? { filters: scoped } : {}) } };
        },
      }),
  );
  const { messages, sendMessage, setMessages, status, error, stop } = useChat<AskMessage>({ transport });
  const reply = messages.find((m) => m.role === 'assistant');
  const sources = reply?.parts.filter((p) => p.type === 'source-document') ?? [];
  const text = reply?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
  const final = reply?.parts.find((p) => p.type === 'data-answer')?.data ?? null;
  const claims = (reply?.parts ?? []).flatMap((p) => (p.type === 'data-claim' ? [p.data] : [])).sort((a, b) => a.index - b.index);
  // The part of the text still being written, after the last sentence already checked.
  const writing = claims.length && claims.every((c) => c.end !== undefined) ? text.slice(Math.max(...claims.map((c) => c.end!))).trim() : '';
  // The sources arrive as the answer's citable pool, in its order: the labels the stored answer will show.
  const sourceLabel = labelsById(sources.map((s) => ({ id: s.sourceId })));
  const busy = status === 'submitted' || status === 'streaming';

  // Time from asking to the first evidence on screen, shown with the answer (the workspace's latency promise).
  if (sources.length > 0 && firstEvidenceMs === null && asked.current) setFirstEvidenceMs(Math.round(performance.now() - asked.current.at));

  const ask = (text: string) => {
    const q = text.trim();
    if (q.length < 3 || busy) return;
    if (comparing) {
      if (settings.compared.length >= 2) router.push(compareHref(q, settings.compared, settings.mode, settings.filters));
      return;
    }
    asked.current = { text: q, at: performance.now() };
    setFirstEvidenceMs(null);
    setMessages([]);
    void sendMessage({ text: q });
  };

  return (
    <div className="space-y-4">
      <form
        aria-label="Ask a question"
        className="space-y-2 rounded-lg border border-slate-200 bg-white p-4"
        onSubmit={(e) => {
          e.preventDefault();
          ask(question);
        }}
      >
        <label htmlFor="workspace-question" className="block text-sm font-medium text-slate-700">
          Question
        </label>
        <textarea
          id="workspace-question"
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              ask(question);
            }
          }}
          required
          minLength={3}
          maxLength={2000}
          rows={2}
          placeholder="Which paper reports a peak power density of 0.812 W cm−2 at 973 K?"
          className="w-full rounded border border-slate-300 px-3 py-2 text-sm"
          aria-describedby="workspace-keys"
        />
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
          {/* How the answer is found and written: the default serves a chemist; the rest is for comparing methods. */}
          <details className="w-full" data-testid="advanced-settings">
            <summary className="cursor-pointer text-xs text-slate-600">Advanced: how evidence is found and the answer written</summary>
            <div className="mt-2 flex flex-wrap items-center gap-3">
              <label>
                Pipeline{' '}
                <select
                  value={settings.pipeline}
                  onChange={(e) => setSettings({ ...settings, pipeline: e.target.value })}
                  className="rounded border border-slate-300 px-2 py-1"
                  aria-label="Pipeline"
                >
                  <PipelineOptions pipelines={pipelines} />
                  <option value="compare">compare 2–3 pipelines side by side</option>
                </select>
              </label>
              <label>
                Answer{' '}
                <select
                  value={settings.mode}
                  onChange={(e) => setSettings({ ...settings, mode: e.target.value })}
                  className="rounded border border-slate-300 px-2 py-1"
                  aria-label="Answer mode"
                >
                  <AnswerModeOptions modelId={modelId} />
                </select>
              </label>
              <PipelineHint pipelines={pipelines} chosen={settings.pipeline} />
            </div>
          </details>
          <span id="workspace-keys" className="text-xs text-slate-500">
            Enter asks · Shift+Enter new line
          </span>
          {busy ? (
            <button type="button" onClick={() => stop()} className="ml-auto rounded border border-slate-300 px-4 py-1.5 font-medium">
              Stop
            </button>
          ) : (
            <button type="submit" className="ml-auto rounded bg-teal-700 px-4 py-1.5 font-medium text-white">
              {comparing ? 'Compare' : 'Ask'}
            </button>
          )}
        </div>
        {comparing && (
          <fieldset className="flex flex-wrap gap-x-4 gap-y-1 rounded border border-slate-200 px-3 py-2 text-sm">
            <legend className="px-1 text-xs text-slate-600">Pipelines to compare (two or three)</legend>
            {pipelines.map((p) => {
              const on = settings.compared.includes(p.name);
              return (
                <label key={p.name} title={p.description} className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={on}
                    disabled={!on && settings.compared.length >= 3}
                    onChange={() => setSettings({ ...settings, compared: on ? settings.compared.filter((x) => x !== p.name) : [...settings.compared, p.name] })}
                  />
                  {p.name}
                </label>
              );
            })}
            {settings.compared.length < 2 && <span className="text-xs text-red-700">choose at least two</span>}
          </fieldset>
        )}
        <AskFiltersFields value={settings.filters} onChange={(filters) => setSettings({ ...settings, filters })} choices={choices} />
      </form>

      {examples.length > 0 && !reply && (
        <section aria-label="Example questions" className="space-y-1 text-sm">
          <h2 className="text-xs font-medium uppercase tracking-wide text-slate-500">Try a question this corpus can answer</h2>
          <ul className="flex flex-wrap gap-2">
            {examples.map((e) => (
              <li key={e.question}>
                <button
                  type="button"
                  onClick={() => {
                    setQuestion(e.question);
                    ask(e.question);
                  }}
                  className="rounded-full border border-teal-200 bg-teal-50 px-3 py-1 text-left text-teal-900 hover:bg-teal-100"
                  title={`${e.kind}${e.domain ? `, ${e.domain}` : ''}`}
                >
                  {e.question}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      {status === 'submitted' && (
        <p role="status" className="text-sm text-slate-600">
          Retrieving evidence…
        </p>
      )}
      {error && (
        <div role="alert" className="flex items-center gap-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          <span>The answer failed: {errorText(error)}</span>
          {asked.current && (
            <button type="button" className="rounded border border-red-300 px-2 py-0.5" onClick={() => ask(asked.current!.text)}>
              Retry
            </button>
          )}
        </div>
      )}

      {reply && !final && (
        <section aria-label="Answer in progress" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-busy={busy}>
          {claims.length > 0 ? (
            <ol className="space-y-2" aria-label="Answer sentences checked so far" data-testid="streamed-claims">
              {claims.map((c) => (
                <ClaimLine key={c.index} sentence={c.sentence} label={sourceLabel} />
              ))}
              {writing && (
                <li className="text-[15px] leading-relaxed text-slate-600" data-testid="streamed-text">
                  {writing}
                </li>
              )}
            </ol>
          ) : text ? (
            <p className="text-[15px] leading-relaxed" data-testid="streamed-text">
              {text}
            </p>
          ) : (
            <p role="status" className="text-sm text-slate-600">
              {sources.length ? `${sources.length} evidence items found; writing the answer…` : 'Retrieving evidence…'}
            </p>
          )}
          {sources.length > 0 && (
            <ol className="space-y-1 text-sm text-slate-700" data-testid="streamed-evidence" aria-label="Evidence found">
              {sources.map((s) => (
                <li key={s.sourceId}>{s.title}</li>
              ))}
            </ol>
          )}
        </section>
      )}

      {final && (
        <section aria-label="Answer" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-lg font-semibold">{asked.current?.text}</h2>
            <Link href={`/answers/${final.id}`} className="text-sm text-teal-800 hover:underline">
              Permanent link
            </Link>
          </div>
          {firstEvidenceMs !== null && (
            <p className="text-xs text-slate-500" data-testid="first-evidence">
              first evidence on screen after {firstEvidenceMs} ms
            </p>
          )}
          <AnswerView
            answer={final.answer}
            offer={
              offersPaperSearch(final.answer) && (
                <Link href={`/answers/${final.id}`} className="text-sm text-teal-800 hover:underline" data-testid="look-for-papers-link">
                  Look for papers on this question online →
                </Link>
              )
            }
          />
        </section>
      )}
    </div>
  );
}
